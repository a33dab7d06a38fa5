// Loading a long stream from its snapshot: the same state as folding every event, a bounded
// number of events read whatever the stream's length, and retries of old requests still
// answered as they were the first time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import type { Refusal } from '@eventide/kernel/models/refusal.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { WAIT_BOUND_MS } from '@eventide/testing/wait.ts';
import { fold } from '@eventide/kernel/models/model.ts';
import { accountAggregate } from './account/decide.ts';
import { handle, type CommandOptions } from './handle.ts';
import {
  SNAPSHOT_AFTER_EVENTS,
  loadEventsFrom,
  loadLastEvents,
  loadState,
  loadStateAsOf,
  snapshotVersionOf,
  type Foldable,
} from '@eventide/stores/event-store/load-state.ts';
import { productModel } from '@eventide/kernel/models/product/state.ts';
import { orderAggregate } from './order/decide.ts';
import { productAggregate } from './product/decide.ts';
import { userAggregate } from './user/decide.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';

const metadata = { correlationId: 'c', actor: { type: 'anonymous' as const } };
const options: CommandOptions = { metadata };
const SYSTEM: Principal = { type: 'system', name: 'test' };
const LONG = 10 * SNAPSHOT_AFTER_EVENTS;

let store: EventStore;
beforeEach(() => {
  store = openSqliteEventStore({ path: ':memory:' });
});
afterEach(() => store.close());

/** The store, counting how many events its stream reads return. */
function counting(inner: EventStore): EventStore & { eventsRead: number } {
  const counted = {
    ...inner,
    eventsRead: 0,
    async readStream(streamId: string, range?: Parameters<EventStore['readStream']>[1]) {
      const events = await inner.readStream(streamId, range);
      counted.eventsRead += events.length;
      return events;
    },
  };
  return counted;
}

/** The state folded from every event, the way it was before snapshots. */
async function foldedFromScratch<State>(foldable: Foldable<State>, streamId: string): Promise<State> {
  return fold(foldable, await store.readStream(streamId));
}

/** Snapshots are written after the load that asks for them: wait until the newest one covers `revision`. */
async function snapshotReaches(foldable: Foldable<unknown>, streamId: string, revision: number): Promise<void> {
  const version = snapshotVersionOf(foldable);
  await vi.waitFor(
    async () => {
      const snapshot = await store.readSnapshot(streamId, { version });
      expect(snapshot?.revision).toBeGreaterThanOrEqual(revision);
    },
    { timeout: WAIT_BOUND_MS, interval: 5 },
  );
}

const product = (name: string) => PRODUCT.complete({ name, description: `about ${name}`, price: { amount: 100, currency: 'EUR' } });

async function longProduct(): Promise<string> {
  const productId = newId();
  await handle(store, productAggregate, productId, { type: 'CreateProduct', productId, details: product('v0') }, options);
  for (let i = 1; i < LONG; i++) {
    await handle(store, productAggregate, productId, { type: 'ChangeProduct', changes: { name: `v${i}` } }, options);
  }
  return productId;
}

describe('loading a stream from its snapshot', () => {
  it('gives the state that folding every event gives, reading a bounded number of events', async () => {
    const productId = await longProduct();
    const streamId = `product-${productId}`;
    await snapshotReaches(productAggregate, streamId, LONG - 1 - SNAPSHOT_AFTER_EVENTS);
    const counted = counting(store);
    const loaded = await loadState(counted, productAggregate, streamId);
    expect(loaded.state).toEqual(await foldedFromScratch(productAggregate, streamId));
    expect(loaded.revision).toBe(LONG - 1);
    expect(counted.eventsRead).toBeLessThanOrEqual(SNAPSHOT_AFTER_EVENTS);
  });

  it('writes each command after a snapshot with the revision it read, so a PATCH on a long stream still conflicts correctly', async () => {
    const productId = await longProduct();
    const result = await handle(
      store,
      productAggregate,
      productId,
      { type: 'ChangeProduct', changes: { name: 'last' } },
      {
        metadata,
        ifMatch: [LONG - 1],
      },
    );
    expect(result.revision).toBe(LONG);
    const stale = await handle(
      store,
      productAggregate,
      productId,
      { type: 'ChangeProduct', changes: { name: 'stale' } },
      {
        metadata,
        ifMatch: [LONG - 1],
      },
    ).catch((e: unknown) => e);
    expect((stale as Refusal).kind).toBe('stale');
  });

  it('never uses a snapshot written by other code (another version)', async () => {
    const productId = await longProduct();
    const streamId = `product-${productId}`;
    const [last] = await store.readStream(streamId, { fromRevision: LONG - 1 });
    const forged = { status: 'active', productId, name: 'from other code' };
    await store.saveSnapshot(streamId, {
      version: 'other code',
      revision: LONG - 1,
      position: last!.position,
      time: last!.time,
      state: forged,
    });
    const loaded = await loadState(store, productAggregate, streamId);
    expect(loaded.state).toEqual(await foldedFromScratch(productAggregate, streamId));
    expect(loaded.state).toMatchObject({ name: `v${LONG - 1}` });
  });

  it('keeps every aggregate state whole through a snapshot', async () => {
    const userId = newId();
    await handle(store, userAggregate, userId, { type: 'CreateUser', userId, profile: { name: 'U', email: 'u@example.com' } }, options);
    for (let i = 0; i < SNAPSHOT_AFTER_EVENTS + 3; i++) {
      await handle(store, userAggregate, userId, { type: 'ChangeUser', changes: { name: `U${i}` } }, options);
    }
    await handle(store, userAggregate, userId, { type: 'DeleteUser' }, options);

    const orderId = newId();
    const line = (quantity: number) => ({ productId: newId(), quantity, unitPrice: { amount: 250, currency: 'EUR' } });
    await handle(store, orderAggregate, orderId, { type: 'CreateOrder', by: SYSTEM, orderId, userId, lines: [line(1)] }, options);
    for (let i = 2; i < SNAPSHOT_AFTER_EVENTS + 4; i++) {
      await handle(store, orderAggregate, orderId, { type: 'ChangeOrder', by: SYSTEM, changes: { lines: [line(i), line(1)] } }, options);
    }
    await handle(store, orderAggregate, orderId, { type: 'ChangeOrder', by: SYSTEM, changes: { status: 'placed' } }, options);
    await handle(store, orderAggregate, orderId, { type: 'ChangeOrder', by: SYSTEM, changes: { status: 'cancelled' } }, options);
    await handle(store, orderAggregate, orderId, { type: 'DeleteOrder', by: SYSTEM }, options);

    const identity = { provider: 'local', subject: 'someone' };
    for (let i = 0; i < SNAPSHOT_AFTER_EVENTS; i++) {
      await handle(store, accountAggregate, userId, { type: 'SetRole', role: 'admin', granted: i % 2 === 0 }, options);
    }
    await handle(store, accountAggregate, userId, { type: 'SetPassword', hash: 'hash', replacing: undefined }, options);
    await handle(store, accountAggregate, userId, { type: 'LinkIdentity', identity, verifiedEmail: 'u@example.com' }, options);

    const cases: Array<[Foldable<unknown>, string]> = [
      [userAggregate as Foldable<unknown>, `user-${userId}`],
      [orderAggregate as Foldable<unknown>, `order-${orderId}`],
      [accountAggregate as Foldable<unknown>, `account-${userId}`],
    ];
    for (const [aggregate, streamId] of cases) {
      const [last] = (await store.readStream(streamId)).slice(-1);
      const folded = await foldedFromScratch(aggregate, streamId);
      const { revision, position, time } = last!;
      await store.saveSnapshot(streamId, { version: snapshotVersionOf(aggregate), revision, position, time, state: folded as JsonValue });
      const counted = counting(store);
      const loaded = await loadState(counted, aggregate, streamId);
      expect(counted.eventsRead, streamId).toBe(0);
      expect(loaded.state, streamId).toEqual(folded);
      expect(loaded.revision, streamId).toBe(last!.revision);
      expect(loaded.position, streamId).toBe(last!.position);
    }
  });
});

describe('a retried command on a long stream', () => {
  it('answers with what the first request got, however many events came after it', async () => {
    const productId = await longProduct();
    const streamId = `product-${productId}`;
    const idempotency = { scopedKey: 'key-1', fingerprint: 'request-1' };
    const first = await handle(
      store,
      productAggregate,
      productId,
      { type: 'ChangeProduct', changes: { name: 'keyed' } },
      {
        metadata,
        idempotency,
      },
    );
    for (let i = 0; i < 3 * SNAPSHOT_AFTER_EVENTS; i++) {
      await handle(store, productAggregate, productId, { type: 'ChangeProduct', changes: { name: `after ${i}` } }, options);
    }
    await snapshotReaches(productAggregate, streamId, first.revision + 2 * SNAPSHOT_AFTER_EVENTS);

    const counted = counting(store);
    const retry = await handle(
      counted,
      productAggregate,
      productId,
      { type: 'ChangeProduct', changes: { name: 'keyed' } },
      {
        metadata,
        idempotency,
      },
    );
    expect(retry).toEqual({ ...first, changed: false });
    expect(retry.state).toMatchObject({ name: 'keyed' });
    // Only the state the first request saw is read, from the snapshot before it and its tail.
    expect(counted.eventsRead).toBeLessThanOrEqual(2 * SNAPSHOT_AFTER_EVENTS);
    expect(await store.readStream(streamId)).toHaveLength(LONG + 1 + 3 * SNAPSHOT_AFTER_EVENTS);

    const reused = await handle(
      store,
      productAggregate,
      productId,
      { type: 'ChangeProduct', changes: { name: 'other' } },
      {
        metadata,
        idempotency: { ...idempotency, fingerprint: 'request-2' },
      },
    ).catch((e: unknown) => e);
    expect((reused as Refusal).kind).toBe('key-reused');
  });
});

describe('reading the past of a long stream (as-of reads, history pages)', () => {
  /** The state after the events up to `revision`, folded from the first. */
  async function foldedUpTo(streamId: string, revision: number) {
    return fold(productModel, (await store.readStream(streamId)).slice(0, revision + 1));
  }

  it('reads an entity as of a position or a time from the snapshot before it, the same state as folding from the first', async () => {
    const productId = await longProduct();
    const streamId = `product-${productId}`;
    await snapshotReaches(productAggregate, streamId, LONG - 1 - SNAPSHOT_AFTER_EVENTS);
    const events = await store.readStream(streamId);
    for (const revision of [0, SNAPSHOT_AFTER_EVENTS + 3, LONG / 2, LONG - 2]) {
      const event = events[revision]!;
      // Events of the same millisecond are all as of that time.
      const lastAtTime = events.findLastIndex((e) => e.time <= event.time);
      for (const [at, expected] of [
        [{ position: event.position }, revision],
        [{ time: event.time }, lastAtTime],
      ] as const) {
        const counted = counting(store);
        const loaded = await loadStateAsOf(counted, productModel, streamId, at);
        expect(loaded.state, JSON.stringify(at)).toEqual(await foldedUpTo(streamId, expected));
        expect(loaded.revision).toBe(expected);
        // The events after the snapshot, read a page (two snapshots' worth) at a time.
        expect(counted.eventsRead, JSON.stringify(at)).toBeLessThanOrEqual(2 * SNAPSHOT_AFTER_EVENTS);
      }
    }
    const beforeAll = await loadStateAsOf(store, productModel, streamId, { position: events[0]!.position - 1 });
    expect(beforeAll.revision).toBe(-1);
  });

  it('reads a page of changes with the state before it, from the snapshot before it', async () => {
    const productId = await longProduct();
    const streamId = `product-${productId}`;
    await snapshotReaches(productAggregate, streamId, LONG - 1 - SNAPSHOT_AFTER_EVENTS);
    const newest = counting(store);
    const last = await loadLastEvents(newest, productModel, streamId, 20);
    expect(last.events.map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => LONG - 20 + i));
    expect(last.before).toEqual(await foldedUpTo(streamId, LONG - 21));
    // The newest snapshot and the events after it, read once.
    expect(newest.eventsRead).toBeLessThanOrEqual(20 + SNAPSHOT_AFTER_EVENTS);
    const from = LONG / 2;
    const counted = counting(store);
    const { before, events } = await loadEventsFrom(counted, productModel, streamId, { from, to: from + 19 });
    expect(before).toEqual(await foldedUpTo(streamId, from - 1));
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => from + i));
    expect(counted.eventsRead).toBeLessThanOrEqual(20 + SNAPSHOT_AFTER_EVENTS);
  });
});
