// The running projector: it recovers from a failed write on its own, even when no further event
// arrives to wake it, says where it resumes from as it starts, and tells the read store that a
// write is coming as soon as it has events in hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { openSqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { until } from '@eventide/testing/wait.ts';
import { startProjector } from '../src/projector.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-projector-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new user's first event, appended: its id, and where it was appended. */
async function appendNewUser(eventStore: EventStore) {
  const userId = newId();
  const appended = await eventStore.append(
    `user-${userId}`,
    [
      {
        id: newId(),
        type: 'user:created',
        data: { userId, name: 'A', email: 'a@example.com' },
        metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return { userId, appended };
}

it('resumes after a failed write without waiting for another event', async () => {
  const eventStore = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const readStore = openSqliteReadStore(join(dir, 'read.db'));
  let failures = 1;
  const flaky: ReadStore = {
    ...readStore,
    writer(generation) {
      const inner = readStore.writer(generation);
      return {
        ...inner,
        async write(writes, checkpoint) {
          if (failures-- > 0) throw new Error('the read store is briefly unavailable');
          return inner.write(writes, checkpoint);
        },
      };
    },
  };
  const { userId, appended } = await appendNewUser(eventStore);
  const projector = startProjector({
    eventStore,
    readStore: flaky,
    parked: openSqliteParkedEvents(':memory:'),
    log: createLogger({ level: 'silent' }),
  });
  const deadline = Date.now() + 10_000;
  while (projector.position() < appended.position && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await projector.stop();
  expect(projector.position()).toBe(appended.position);
  expect(await readStore.get('users', userId)).toBeDefined();
  await readStore.close();
  await eventStore.close();
});

it('announces the position it resumes from as it starts following, before any new event', async () => {
  const eventStore = openSqliteEventStore({ path: join(dir, 'resume-events.db'), synchronous: 'NORMAL' });
  const readStore = openSqliteReadStore(join(dir, 'resume-read.db'));
  const generation = await readStore.activeGeneration();
  // Read models that have got to position 3 already (their events need not be in this test's log).
  await readStore.writer(generation).write([], { name: READ_MODELS_CHECKPOINT, position: 3 });
  const projector = startProjector({
    eventStore,
    readStore,
    parked: openSqliteParkedEvents(':memory:'),
    log: createLogger({ level: 'silent' }),
  });
  const announced: number[] = [];
  projector.onProgress((position) => announced.push(position));
  await until(() => announced.length > 0, 'the announcement of the resumed position');
  expect(announced).toEqual([3]);
  await projector.stop();
  await readStore.close();
  await eventStore.close();
});

it('tells the read store a write is coming before its read of the touched documents and its write', async () => {
  const eventStore = openSqliteEventStore({ path: join(dir, 'expect-events.db'), synchronous: 'NORMAL' });
  const readStore = openSqliteReadStore(join(dir, 'expect-read.db'));
  const calls: string[] = [];
  const watched: ReadStore = {
    ...readStore,
    writer(generation) {
      const inner = readStore.writer(generation);
      return {
        ...inner,
        expectWrite() {
          calls.push('expect');
          inner.expectWrite?.();
        },
        getMany(collection, ids) {
          calls.push('read');
          return inner.getMany(collection, ids);
        },
        write(writes, checkpoint, options) {
          calls.push('write');
          return inner.write(writes, checkpoint, options);
        },
      };
    },
  };
  const projector = startProjector({
    eventStore,
    readStore: watched,
    parked: openSqliteParkedEvents(':memory:'),
    log: createLogger({ level: 'silent' }),
  });
  const announced: number[] = [];
  projector.onProgress((position) => announced.push(position));
  await until(() => announced.length > 0, 'the projector following the log');
  const { appended } = await appendNewUser(eventStore);
  await until(() => projector.position() >= appended.position, 'the projection of the new user');
  await projector.stop();
  expect(calls[0]).toBe('expect');
  expect(calls).toContain('write');
  await readStore.close();
  await eventStore.close();
});
