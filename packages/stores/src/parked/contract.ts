// The contract every ParkedEvents adapter passes.
import { describe, expect, it } from 'vitest';
import type { ParkedEvent, ParkedEvents } from './port.ts';

export interface ParkedHarness {
  parked: ParkedEvents;
  dispose(): Promise<void>;
}

const at = '2026-11-28T10:00:00.000Z';

export function parkedOf(lot: string, position: number, streamId: string, extra: Partial<ParkedEvent> = {}): ParkedEvent {
  return {
    lot,
    position,
    eventId: `event-${position}`,
    streamId,
    revision: position,
    type: 'product:updated',
    time: at,
    reason: 'product:updated version 3 is newer than this release knows (2)',
    attempts: 1,
    parkedAt: at,
    lastAttemptAt: at,
    ...extra,
  };
}

export function parkedEventsContract(name: string, open: () => Promise<ParkedHarness>): void {
  describe(`ParkedEvents contract: ${name}`, () => {
    async function withLot(body: (parked: ParkedEvents) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness.parked);
      } finally {
        await harness.dispose();
      }
    }

    it('parks events and lists them in log order, a lot at a time or all, page by page', () =>
      withLot(async (parked) => {
        await parked.park([parkedOf('publisher', 9, 'product-b'), parkedOf('publisher', 4, 'product-a')]);
        await parked.park([parkedOf('projector@g1', 4, 'product-a'), parkedOf('publisher', 11, 'product-a', { behind: 4, attempts: 0 })]);
        expect((await parked.list({ lot: 'publisher', limit: 10 })).map((e) => e.position)).toEqual([4, 9, 11]);
        expect(
          (await parked.list({ lot: 'publisher', after: { position: 4, lot: 'publisher' }, limit: 1 })).map((e) => e.position),
        ).toEqual([9]);
        const all = await parked.list({ limit: 10 });
        expect(all.map((e) => `${e.lot}:${e.position}`)).toEqual(['projector@g1:4', 'publisher:4', 'publisher:9', 'publisher:11']);
        const second = await parked.list({ after: { position: 4, lot: 'projector@g1' }, limit: 2 });
        expect(second.map((e) => `${e.lot}:${e.position}`)).toEqual(['publisher:4', 'publisher:9']);
        expect(await parked.get('publisher', 11)).toEqual(parkedOf('publisher', 11, 'product-a', { behind: 4, attempts: 0 }));
        expect(await parked.get('publisher', 12)).toBeUndefined();
      }));

    it('updates a parked event in place, keeping when it was first parked', () =>
      withLot(async (parked) => {
        await parked.park([parkedOf('forgetter', 3, 'user-a', { request: { action: 'retry', by: 'ops', at } })]);
        const later = '2026-11-28T11:00:00.000Z';
        await parked.park([
          parkedOf('forgetter', 3, 'user-a', { attempts: 2, reason: 'still failing', parkedAt: later, lastAttemptAt: later }),
        ]);
        expect(await parked.get('forgetter', 3)).toEqual(
          parkedOf('forgetter', 3, 'user-a', { attempts: 2, reason: 'still failing', lastAttemptAt: later }),
        );
      }));

    it('knows which streams are blocked, and what each holds in order', () =>
      withLot(async (parked) => {
        await parked.park([
          parkedOf('publisher', 5, 'order-x'),
          parkedOf('publisher', 8, 'order-x', { behind: 5, attempts: 0 }),
          parkedOf('publisher', 6, 'order-y'),
          parkedOf('forgetter', 2, 'user-z'),
        ]);
        expect(await parked.blockedStreams('publisher')).toEqual(
          new Map([
            ['order-x', 5],
            ['order-y', 6],
          ]),
        );
        expect((await parked.ofStream('publisher', 'order-x')).map((e) => e.position)).toEqual([5, 8]);
      }));

    it("notes an operator's request on failed events only, one or all, and lists what waits", () =>
      withLot(async (parked) => {
        await parked.park([
          parkedOf('publisher', 5, 'order-x'),
          parkedOf('publisher', 8, 'order-x', { behind: 5, attempts: 0 }),
          parkedOf('publisher', 6, 'order-y'),
        ]);
        const skip = { action: 'skip' as const, by: 'ops', at, reason: 'a test order' };
        expect(await parked.request('publisher', 6, skip)).toBe(1);
        expect(await parked.request('publisher', 8, skip)).toBe(0);
        expect(await parked.requested('publisher', 10)).toEqual([parkedOf('publisher', 6, 'order-y', { request: skip })]);
        expect(await parked.request('publisher', 'all', { action: 'retry', by: 'ops', at })).toBe(2);
        expect((await parked.requested('publisher', 10)).map((e) => [e.position, e.request?.action])).toEqual([
          [5, 'retry'],
          [6, 'retry'],
        ]);
      }));

    it('releases events, counts what is left per lot, and forgets a lot', () =>
      withLot(async (parked) => {
        await parked.park([
          parkedOf('projector@g2', 5, 'order-x'),
          parkedOf('projector@g2', 8, 'order-x', { behind: 5, attempts: 0 }),
          parkedOf('projector@g2', 6, 'order-y'),
          parkedOf('projector@g1', 5, 'order-x'),
        ]);
        await parked.release('projector@g2', [6]);
        const counts = await parked.counts();
        expect(counts.get('projector@g2')).toEqual({ parked: 1, held: 1, oldest: parkedOf('projector@g2', 5, 'order-x') });
        expect(counts.get('projector@g1')).toMatchObject({ parked: 1, held: 0 });
        await parked.forget('projector@g1');
        expect([...(await parked.counts()).keys()]).toEqual(['projector@g2']);
      }));
  });
}
