import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import type { EventStoreHarness } from './contract-harness.ts';
import { globalIdsContract } from './global-ids.contract.ts';
import { longestStreamsContract } from './longest-streams.contract.ts';
import { typesSubscriptionContract } from './types-subscription.contract.ts';
import { openSqliteEventStore } from './sqlite.ts';
import type { EventStore } from './port.ts';
import { newId } from '@eventide/kernel/ids.ts';

async function harness(): Promise<EventStoreHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-es-'));
  const path = join(dir, 'events.db');
  let store: EventStore = openSqliteEventStore({ path });
  return {
    allOrNone: true,
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = openSqliteEventStore({ path });
      return store;
    },
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

eventStoreContract('embedded SQLite', harness);
typesSubscriptionContract('embedded SQLite', harness);
longestStreamsContract('embedded SQLite', harness);
globalIdsContract('embedded SQLite', harness);

describe('embedded SQLite event store, beyond the contract', () => {
  const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };

  it('reads a damaged row as one unreadable event, and the rest of the log as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-es-damaged-'));
    const path = join(dir, 'events.db');
    try {
      const store = openSqliteEventStore({ path });
      for (const stream of ['a', 'b', 'c'])
        await store.append(stream, [{ id: newId(), type: 't', data: { n: 1 }, metadata }], { expectedRevision: 'no_stream' });
      await store.close();
      const damage = new DatabaseSync(path);
      damage.prepare("UPDATE events SET data = '{not json' WHERE stream_id = 'b'").run();
      damage.close();
      const reopened = openSqliteEventStore({ path });
      const read = await reopened.readAll({ after: 0, limit: 10 });
      expect(read.map((e) => [e.streamId, e.data, e.unreadable])).toEqual([
        ['a', { n: 1 }, undefined],
        ['b', null, expect.stringMatching(/its stored data is not JSON/)],
        ['c', { n: 1 }, undefined],
      ]);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('wakes at once a subscription on the same file in this process, however long it would poll', async () => {
    // Another store on the file in this process stands for one on another thread (npm start's followers):
    // both are told through the same channel. With an hour between polls, only being told delivers.
    const dir = mkdtempSync(join(tmpdir(), 'eventide-es-wake-'));
    const writer = openSqliteEventStore({ path: join(dir, 'events.db') });
    const follower = openSqliteEventStore({ path: join(dir, 'events.db'), pollIntervalMs: 3_600_000 });
    const controller = new AbortController();
    try {
      const live = follower.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      const first = live.next(); // reads the empty log, then waits
      const appended = await writer.append('a', [{ id: newId(), type: 't', data: {}, metadata }], { expectedRevision: 'no_stream' });
      expect((await first).value).toMatchObject({ streamId: 'a', position: appended.position });
    } finally {
      controller.abort();
      await Promise.all([writer.close(), follower.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a page once for the subscriptions that ask for it in the same turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-es-shared-'));
    const store = openSqliteEventStore({ path: join(dir, 'events.db') });
    const controller = new AbortController();
    try {
      for (const stream of ['a', 'b'])
        await store.append(stream, [{ id: newId(), type: 't', data: { stream }, metadata }], { expectedRevision: 'no_stream' });
      const [one, other] = [0, 1].map(() => store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]());
      const firsts = await Promise.all([one!.next(), other!.next()]);
      expect(firsts[0].value).toMatchObject({ streamId: 'a', data: { stream: 'a' } });
      // The same event, not an equal one read and parsed again.
      expect(firsts[1].value).toBe(firsts[0].value);
    } finally {
      controller.abort();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads past the page of this turn when another connection appended after it was read', async () => {
    // The first subscription reads the empty log and waits; another process commits; the second,
    // in the same turn, finds the log longer than that page: it reads the file, and neither stops
    // at the old page nor spins on it (spinning, it would hold the thread, and this test would hang).
    const dir = mkdtempSync(join(tmpdir(), 'eventide-es-stale-'));
    const path = join(dir, 'events.db');
    const store = openSqliteEventStore({ path, pollIntervalMs: 3_600_000 });
    const controller = new AbortController();
    const other = new DatabaseSync(path);
    try {
      const first = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      void first.next(); // reads the empty log in this turn, then waits
      other
        .prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES (?, ?, 0, ?, ?, ?, ?)')
        .run(newId(), 'a', 't', '{}', JSON.stringify(metadata), new Date().toISOString());
      const second = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      expect((await second.next()).value).toMatchObject({ streamId: 'a', position: 1 });
    } finally {
      controller.abort();
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
