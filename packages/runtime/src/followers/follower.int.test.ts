// A follower of some types of event (the deadlines, the forgetter) on the embedded store: it is
// handed only those, and its checkpoint and position move past the others, so that its health
// never reads a log of other events as work it is stalled on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';
import { startFollower, type Checkpoints } from './follower.ts';
import { followersProbe } from './health.ts';

const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
let dir: string;
let store: EventStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-follower-'));
  store = openSqliteEventStore({ path: join(dir, 'events.db'), pollIntervalMs: 20 });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const append = (type: string) =>
  store.append(`s-${newId()}`, [{ id: newId(), type, data: {}, metadata }], { expectedRevision: 'no_stream' });

it('hands on only its types, and moves its checkpoint past the others, caught up and live', async () => {
  const saved = new Map<string, number>();
  const checkpoints: Checkpoints = {
    loadCheckpoint: async (name) => saved.get(name) ?? 0,
    saveCheckpoint: async (name, position) => void saved.set(name, position),
  };
  const first = await append('order:created');
  for (let i = 0; i < 5; i++) await append('user:created');
  const handled: RecordedEvent[] = [];
  const follower = startFollower({
    name: 'deadlines',
    checkpoint: 'test',
    // Not a page of every event: the store passes over the others itself.
    eventStore: {
      ...store,
      subscribeToAll: () => {
        throw new Error('a follower of some types read every event');
      },
    },
    checkpoints,
    parked: openSqliteParkedEvents(':memory:'),
    log: createLogger({ level: 'silent' }),
    probe: async () => undefined,
    types: ['order:created', 'order:updated'],
    async handle(batch) {
      handled.push(...batch);
    },
  });
  const health = followersProbe({
    followers: ['deadlines'],
    events: store,
    parked: openSqliteParkedEvents(':memory:'),
    activeGeneration: async () => 1,
    positions: () => ({ deadlinesAt: follower.position() }),
    maxStallSeconds: 0,
  });
  try {
    const caughtUp = await store.head();
    await until(
      () => follower.position() >= caughtUp,
      () => `the follower at ${follower.position()}, the log at ${caughtUp}`,
    );
    // What it handled is saved at once; the stretch it passed over may wait for the next save.
    expect(saved.get('test')).toBeGreaterThanOrEqual(first.position);
    // Live: others only, then one of its own.
    for (let i = 0; i < 3; i++) await append('product:updated');
    const others = await store.head();
    await until(
      () => follower.position() >= others,
      () => `the follower at ${follower.position()}, the log at ${others}`,
    );
    // With no stall allowed at all, a follower behind the log would fail at once.
    expect((await health.check()).fail).toBeUndefined();
    const last = await append('order:updated');
    await until(
      () => handled.length === 2,
      () => `${handled.length} events handled`,
    );
    expect(handled.map((e) => e.type)).toEqual(['order:created', 'order:updated']);
    await until(
      () => saved.get('test') === last.position,
      () => `the checkpoint at ${saved.get('test')}`,
    );
  } finally {
    await follower.stop();
  }
});
