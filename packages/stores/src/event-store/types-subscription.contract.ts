// The contract of EventStore.subscribeToTypes, for every adapter (their tests call it beside
// eventStoreContract): the events of the types asked for, in order, and how far past the others
// the subscription has read, caught up and live, resumable from any position it reached.
import { describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { event, stream } from './contract.ts';
import { storesOf, within, type EventStoreHarness } from './contract-harness.ts';
import { isReached, type OfTypes } from './port.ts';

export function typesSubscriptionContract(name: string, open: () => Promise<EventStoreHarness>): void {
  describe(`EventStore contract, subscriptions to some types: ${name}`, () => {
    const withStore = storesOf(open);

    it('subscribes to some types: their events in order, and how far past the others it has read', () =>
      withStore(async ({ store }) => {
        // Types of this test's own, as the suite may share a server with other data.
        const [wanted, alsoWanted, other] = ['w', 'v', 'o'].map((t) => `${t}-${newId()}`) as [string, string, string];
        const s = stream();
        const start = await store.head();
        const caughtUp = await store.append(s, [event(wanted), event(other), event(other)], { expectedRevision: 'no_stream' });
        const controller = new AbortController();
        const items: OfTypes[] = [];
        const seen: Array<{ until: (item: OfTypes) => boolean; resolve: () => void }> = [];
        // What came already counts: an item may arrive before its waiter is set.
        const until = (accept: (item: OfTypes) => boolean) =>
          within(
            new Promise<void>((resolve) => {
              if (items.some(accept)) resolve();
              else seen.push({ until: accept, resolve });
            }),
          );
        const reading = (async () => {
          for await (const item of store.subscribeToTypes([wanted, alsoWanted], { after: start, signal: controller.signal })) {
            items.push(item);
            for (const waiter of seen) if (waiter.until(item)) waiter.resolve();
          }
        })();
        const past = (position: number) => (item: OfTypes) => isReached(item) && item.reached >= position;
        // Caught up: past the others after the last event it wanted, with nothing more to hand on.
        await until(past(caughtUp.position));
        // Live: past another appended while it waits, then the next it wants.
        const other2 = await store.append(s, [event(other)], { expectedRevision: caughtUp.nextRevision });
        await until(past(other2.position));
        const next = store.append(s, [event(alsoWanted)], { expectedRevision: other2.nextRevision });
        await until((item) => !isReached(item) && item.type === alsoWanted);
        await next;
        controller.abort();
        await reading;
        const events = items.filter((item): item is RecordedEvent => !isReached(item));
        expect(events.map((e) => e.type)).toEqual([wanted, alsoWanted]);
        expect(events.every((e) => e.streamId === s)).toBe(true);
        // In order: an event never comes at or before a position already reached or yielded.
        let floor = start;
        for (const item of items) {
          if (isReached(item)) expect(item.reached).toBeGreaterThanOrEqual(floor);
          else expect(item.position).toBeGreaterThan(floor);
          floor = isReached(item) ? item.reached : item.position;
        }
      }));

    it('resumes a subscription to some types from a position it reached', () =>
      withStore(async ({ store }) => {
        const [wanted, other] = ['w', 'o'].map((t) => `${t}-${newId()}`) as [string, string];
        const s = stream();
        const first = await store.append(s, [event(wanted), event(other)], { expectedRevision: 'no_stream' });
        const reached = await within(
          (async () => {
            for await (const item of store.subscribeToTypes([wanted], { after: first.position - 2 })) {
              if (isReached(item) && item.reached >= first.position) return item.reached;
            }
            return 0;
          })(),
        );
        await store.append(s, [event(other), event(wanted)], { expectedRevision: first.nextRevision });
        const [next] = await within(
          (async () => {
            for await (const item of store.subscribeToTypes([wanted], { after: reached })) if (!isReached(item)) return [item];
            return [];
          })(),
        );
        expect(next!.type).toBe(wanted);
        expect(next!.revision).toBe(3);
      }));
  });
}
