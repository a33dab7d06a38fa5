// The contract of the stores whose event ids are unique in the whole log (the embedded store,
// PostgreSQL), stricter than EventStoreDB, which scopes them to a stream: a global id is what
// lets subscribers drop duplicates by id alone. And what such a store does with the appends it
// commits together: each stands or falls alone.
import { describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import { event, stream } from './contract.ts';
import { storesOf, type EventStoreHarness } from './contract-harness.ts';
import { EventIdReusedError } from './port.ts';

export function globalIdsContract(name: string, open: () => Promise<EventStoreHarness>): void {
  describe(`EventStore contract, ids unique in the log: ${name}`, () => {
    const withStore = storesOf(open);

    it('refuses an event id that is already used in another stream', () =>
      withStore(async ({ store }) => {
        const used = event();
        await store.append(stream(), [used], { expectedRevision: 'any' });
        await expect(store.append(stream(), [used], { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
      }));

    it('refuses a partial repeat of an earlier append', () =>
      withStore(async ({ store }) => {
        const s = stream();
        const first = event();
        await store.append(s, [first], { expectedRevision: 'any' });
        await expect(store.append(s, [first, event()], { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
        expect(await store.readStream(s)).toHaveLength(1);
      }));

    it('refuses ids that are not UUIDs and empty appends', () =>
      withStore(async ({ store }) => {
        await expect(store.append(stream(), [{ ...event(), id: 'x' }], { expectedRevision: 'any' })).rejects.toThrow(/UUID/);
        await expect(store.append(stream(), [], { expectedRevision: 'any' })).rejects.toThrow(/at least one/);
      }));

    it('refuses an append whose later event id is already in the log, writing none of it', () =>
      withStore(async ({ store }) => {
        const old = event();
        await store.append(stream(), [old], { expectedRevision: 'any' });
        const fresh = stream();
        await expect(store.append(fresh, [event(), old], { expectedRevision: 'any' })).rejects.toBeInstanceOf(EventIdReusedError);
        expect(await store.readStream(fresh)).toEqual([]);
      }));

    it('says which stream holds the first event id of an append to a new stream, writing none of it', () =>
      withStore(async ({ store }) => {
        const [holder, fresh] = [stream(), stream()];
        const old = event();
        await store.append(holder, [old], { expectedRevision: 'no_stream' });
        await expect(store.append(fresh, [old, event()], { expectedRevision: 'no_stream' })).rejects.toThrow(`belongs to stream ${holder}`);
        expect(await store.readStream(fresh)).toEqual([]);
      }));

    it('refuses only the failing appends of those committed together, writing the others whole', () =>
      withStore(async ({ store }) => {
        const old = event();
        await store.append(stream(), [old], { expectedRevision: 'any' });
        const [one, two, three, four] = [stream(), stream(), stream(), stream()];
        // Sent in one turn, so they share one commit.
        const outcomes = await Promise.allSettled([
          store.append(one, [event()], { expectedRevision: 'no_stream' }),
          store.append(two, [event(), event(), old], { expectedRevision: 'any' }),
          store.append(three, [event()], { expectedRevision: 5 }),
          store.append(four, [event(), event()], { expectedRevision: 'no_stream' }),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
        expect(await store.readStream(one)).toHaveLength(1);
        expect(await store.readStream(two)).toEqual([]);
        expect(await store.readStream(three)).toEqual([]);
        expect((await store.readStream(four)).map((e) => e.revision)).toEqual([0, 1]);
      }));

    it('undoes the earlier appends of an appendInOrder committed with others when a later one fails', () =>
      withStore(async ({ store }) => {
        const [kept, undone, refused] = [stream(), stream(), stream()];
        const outcomes = await Promise.allSettled([
          store.append(kept, [event()], { expectedRevision: 'no_stream' }),
          store.appendInOrder([
            { streamId: undone, events: [event()], expectedRevision: 'no_stream' },
            { streamId: refused, events: [event()], expectedRevision: 3 },
          ]),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
        expect(await store.readStream(kept)).toHaveLength(1);
        expect(await store.readStream(undone)).toEqual([]);
      }));

    it('lets the event loop turn while a subscriber catches up, so a long backlog does not hold the process', () =>
      withStore(async ({ store }) => {
        const backlog = 2_000; // four pages
        const s = stream();
        const appended = await store.append(
          s,
          Array.from({ length: backlog }, () => ({ ...event(), id: newId() })),
          { expectedRevision: 'any' },
        );
        let seen = 0;
        let seenWhenTheLoopTurned: number | undefined;
        setImmediate(() => (seenWhenTheLoopTurned = seen));
        const controller = new AbortController();
        for await (const e of store.subscribeToAll({ signal: controller.signal })) {
          seen = e.position;
          if (seen === appended.position) controller.abort();
        }
        expect(seenWhenTheLoopTurned).toBeDefined();
        expect(seenWhenTheLoopTurned).toBeLessThan(appended.position);
      }));
  });
}
