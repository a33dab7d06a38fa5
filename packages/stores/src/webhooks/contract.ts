// The contract every WebhookStore adapter passes.
import { describe, expect, it } from 'vitest';
import type { Delivery, WebhookEndpoint, WebhookStore } from './port.ts';

export interface WebhookHarness {
  store: WebhookStore;
  /** Another handle on the same store, as a second process would have. */
  another(): Promise<WebhookStore>;
  dispose(): Promise<void>;
}

const at = '2026-11-29T10:00:00.000Z';

export function endpointOf(id: string, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id,
    url: `https://hooks.example.com/${id}`,
    events: ['order:updated'],
    description: '',
    secrets: [{ secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' }],
    fromPosition: 0,
    enabled: true,
    dropped: 0,
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}

export function deliveryOf(endpointId: string, position: number, entity: string, extra: Partial<Delivery> = {}): Delivery {
  return {
    id: `${endpointId}:${position}`,
    endpointId,
    eventId: `event-${position}`,
    eventType: 'order:updated',
    entity,
    position,
    payload: `{"position":${position}}`,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 1_000,
    createdAt: at,
    ...extra,
  };
}

export function webhookStoreContract(name: string, open: () => Promise<WebhookHarness>): void {
  describe(`WebhookStore contract: ${name}`, () => {
    async function withStore(body: (harness: WebhookHarness) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness);
      } finally {
        await harness.dispose();
      }
    }

    it('adds endpoints up to the bound, and changes, disables and removes them', () =>
      withStore(async ({ store }) => {
        expect(await store.addEndpoint(endpointOf('a'), 2)).toBe('added');
        expect(await store.addEndpoint(endpointOf('b'), 2)).toBe('added');
        expect(await store.addEndpoint(endpointOf('c'), 2)).toBe('full');
        expect((await store.endpoints()).map((e) => e.id)).toEqual(['a', 'b']);
        expect(await store.saveEndpoint({ ...endpointOf('a'), events: ['order:created'] })).toBe(true);
        expect((await store.endpoint('a'))?.events).toEqual(['order:created']);
        await store.disable('a', 'kept failing', at, 3);
        await store.disable('a', 'again', at, 2);
        expect(await store.endpoint('a')).toMatchObject({ enabled: false, disabledReason: 'kept failing', dropped: 5 });
        expect(await store.removeEndpoint('b')).toBe(true);
        expect(await store.removeEndpoint('b')).toBe(false);
        expect(await store.saveEndpoint(endpointOf('b'))).toBe(false);
      }));

    it('queues a delivery once, and no more than the bound per endpoint', () =>
      withStore(async ({ store }) => {
        await store.addEndpoint(endpointOf('a'), 10);
        const refused = await store.enqueue(
          [deliveryOf('a', 1, 'order-1'), deliveryOf('a', 1, 'order-1'), deliveryOf('a', 2, 'order-2'), deliveryOf('a', 3, 'order-3')],
          2,
        );
        expect(refused).toEqual(new Map([['a', 1]]));
        expect(await store.pending('a')).toBe(2);
      }));

    it('gives each entity its deliveries one at a time, in order, to one claimer at a time', () =>
      withStore(async ({ store, another }) => {
        await store.addEndpoint(endpointOf('a'), 10);
        await store.enqueue([deliveryOf('a', 1, 'order-1'), deliveryOf('a', 2, 'order-1'), deliveryOf('a', 3, 'order-2')], 10);
        const other = await another();
        try {
          const first = await store.claim(1_000, 10, 30_000);
          // The second of order-1 waits for the first: it is not due until that one is done.
          await store.record(first[1]!.id, { status: 'pending', attempts: 1, nextAttemptAt: 7_000, firstAttemptAt: 1_000 });
          await store.record(first[0]!.id, { status: 'pending', attempts: 1, nextAttemptAt: 5_000, firstAttemptAt: 1_000 });
          expect(await store.nextDue()).toBe(5_000);
          first.splice(0, 2, ...(await store.claim(7_000, 10, 30_000)));
          expect(first.map((d) => d.position)).toEqual([1, 3]);
          expect(await other.claim(1_000, 10, 30_000)).toEqual([]);
          await store.addEndpoint(endpointOf('b'), 10);
          await store.enqueue([deliveryOf('b', 4, 'order-4')], 10);
          expect(await other.claim(1_000, 10, 30_000, ['b'])).toEqual([]);
          expect((await other.claim(1_000, 10, 30_000, ['a'])).map((d) => d.position)).toEqual([4]);
          await store.record(first[0]!.id, { status: 'delivered', attempts: 1, nextAttemptAt: 1_000, deliveredAt: at, lastStatus: 204 });
          expect((await other.claim(1_000, 10, 30_000)).map((d) => d.position)).toEqual([2]);
          // A lease that ran out may be claimed again.
          expect((await other.claim(40_000, 10, 30_000, ['b'])).map((d) => d.position)).toEqual([2, 3]);
        } finally {
          await other.close();
        }
      }));

    it('waits for the time of a retry, skips disabled endpoints, and redelivers', () =>
      withStore(async ({ store }) => {
        await store.addEndpoint(endpointOf('a'), 10);
        await store.enqueue([deliveryOf('a', 1, 'order-1')], 10);
        const [delivery] = await store.claim(1_000, 10, 30_000);
        await store.record(delivery!.id, {
          status: 'pending',
          attempts: 1,
          nextAttemptAt: 5_000,
          firstAttemptAt: 1_000,
          lastStatus: 500,
          lastError: 'answered 500',
        });
        expect(await store.nextDue()).toBe(5_000);
        expect(await store.claim(4_999, 10, 30_000)).toEqual([]);
        await store.disable('a', 'test', at);
        expect(await store.claim(5_000, 10, 30_000)).toEqual([]);
        expect(await store.nextDue()).toBeUndefined();
        await store.saveEndpoint({ ...(await store.endpoint('a'))!, enabled: true });
        const [again] = await store.claim(5_000, 10, 30_000);
        expect(again).toMatchObject({ attempts: 1, lastStatus: 500, lastError: 'answered 500', firstAttemptAt: 1_000 });
        await store.record(again!.id, { status: 'delivered', attempts: 2, nextAttemptAt: 5_000, deliveredAt: at, lastStatus: 200 });
        expect(await store.redeliver(again!.id, 9_000)).toMatchObject({ status: 'pending', nextAttemptAt: 9_000 });
        expect((await store.claim(9_000, 10, 30_000)).map((d) => d.id)).toEqual([again!.id]);
      }));

    it('lists an endpoint’s deliveries newest first, and keeps only the newest finished ones', () =>
      withStore(async ({ store }) => {
        await store.addEndpoint(endpointOf('a'), 10);
        await store.enqueue(
          [1, 2, 3, 4].map((p) => deliveryOf('a', p, `order-${p}`)),
          10,
        );
        for (const d of await store.claim(1_000, 10, 30_000)) {
          if (d.position < 4) await store.record(d.id, { status: 'delivered', attempts: 1, nextAttemptAt: 1_000, deliveredAt: at });
        }
        expect((await store.deliveries('a', { limit: 10 })).map((d) => d.position)).toEqual([4, 3, 2, 1]);
        expect((await store.deliveries('a', { before: 3, limit: 1 })).map((d) => d.position)).toEqual([2]);
        await store.prune(2);
        expect((await store.deliveries('a', { limit: 10 })).map((d) => d.position)).toEqual([4, 3, 2]);
      }));
  });
}
