import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventStoreContract, type EventStoreHarness } from './contract.ts';
import { longestStreamsContract } from './longest-streams.contract.ts';
import { openSqliteEventStore } from './sqlite.ts';
import { EventIdReusedError, type EventStore } from './port.ts';
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
longestStreamsContract('embedded SQLite', harness);

// Stricter than EventStoreDB, which scopes ids to a stream: a global unique id is what lets
// subscribers drop duplicates by id alone.
describe('embedded SQLite event store, beyond the contract', () => {
  const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };

  it('refuses an event id that is already used in another stream', async () => {
    const store = openSqliteEventStore({ path: ':memory:' });
    const event = { id: newId(), type: 't', data: {}, metadata };
    await store.append('a', [event], { expectedRevision: 'any' });
    await expect(store.append('b', [event], { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
    await store.close();
  });

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

  it('refuses a partial repeat of an earlier append', async () => {
    const store = openSqliteEventStore({ path: ':memory:' });
    const first = { id: newId(), type: 't', data: {}, metadata };
    await store.append('a', [first], { expectedRevision: 'any' });
    const mixed = [first, { id: newId(), type: 't', data: {}, metadata }];
    await expect(store.append('a', mixed, { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
    expect(await store.readStream('a')).toHaveLength(1);
    await store.close();
  });

  it('lets the event loop turn while a subscriber catches up, so a long backlog does not hold the process', async () => {
    const store = openSqliteEventStore({ path: ':memory:' });
    const backlog = 2_000; // four pages
    await store.append(
      'a',
      Array.from({ length: backlog }, () => ({ id: newId(), type: 't', data: {}, metadata })),
      {
        expectedRevision: 'any',
      },
    );
    let seen = 0;
    let seenWhenTheLoopTurned: number | undefined;
    setImmediate(() => (seenWhenTheLoopTurned = seen));
    const controller = new AbortController();
    for await (const event of store.subscribeToAll({ signal: controller.signal })) {
      seen = event.position;
      if (seen === backlog) controller.abort();
    }
    expect(seenWhenTheLoopTurned).toBeDefined();
    expect(seenWhenTheLoopTurned).toBeLessThan(backlog);
    await store.close();
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

  it('refuses ids that are not UUIDs and empty appends', async () => {
    const store = openSqliteEventStore({ path: ':memory:' });
    await expect(store.append('a', [{ id: 'x', type: 't', data: {}, metadata }], { expectedRevision: 'any' })).rejects.toThrow(/UUID/);
    await expect(store.append('a', [], { expectedRevision: 'any' })).rejects.toThrow(/at least one/);
    await store.close();
  });
});

describe('embedded SQLite event store, id reuse inside a new append', () => {
  it('refuses an append whose later event id is already in the log, writing none of it', async () => {
    const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
    const store = openSqliteEventStore({ path: ':memory:' });
    const old = { id: newId(), type: 't', data: {}, metadata };
    await store.append('a', [old], { expectedRevision: 'any' });
    const fresh = { id: newId(), type: 't', data: {}, metadata };
    await expect(store.append('b', [fresh, old], { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
    expect(await store.readStream('b')).toEqual([]);
    await store.close();
  });

  it('says which stream holds the first event id of an append to a new stream, writing none of it', async () => {
    const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
    const store = openSqliteEventStore({ path: ':memory:' });
    const old = { id: newId(), type: 't', data: {}, metadata };
    await store.append('a', [old], { expectedRevision: 'no_stream' });
    const refused = store.append('b', [old, { id: newId(), type: 't', data: {}, metadata }], { expectedRevision: 'no_stream' });
    await expect(refused).rejects.toThrow(/belongs to stream a/);
    expect(await store.readStream('b')).toEqual([]);
    await store.close();
  });

  it('refuses only the failing appends of those committed together, writing the others whole', async () => {
    const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };
    const store = openSqliteEventStore({ path: ':memory:' });
    const event = () => ({ id: newId(), type: 't', data: {}, metadata });
    const old = event();
    await store.append('a', [old], { expectedRevision: 'any' });
    // Sent in one turn, so they share one transaction.
    const outcomes = await Promise.allSettled([
      store.append('one', [event()], { expectedRevision: 'no_stream' }),
      store.append('two', [event(), event(), old], { expectedRevision: 'any' }),
      store.append('three', [event()], { expectedRevision: 5 }),
      store.append('four', [event(), event()], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((await store.readStream('one')).length).toBe(1);
    expect(await store.readStream('two')).toEqual([]);
    expect(await store.readStream('three')).toEqual([]);
    expect((await store.readStream('four')).map((e) => e.revision)).toEqual([0, 1]);
    await store.close();
  });
});
