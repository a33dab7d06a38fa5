// The live streams' follower: a change goes out only once the read models include its event,
// a burst of one entity's events is read once, and a stream that fails does not stop the others.
// The read models are a stand-in whose progress the test moves, so that "not yet" is a state the
// test holds, not a time it waits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { ReadDocument, ReadStore } from '@eventide/stores/read-store/port.ts';
import type { Progress } from '../consistency.ts';
import { ChangeHub, type Change, type ChangeListener } from './hub.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };

/** Read models that reach only what the test lets them reach. */
function heldProgress() {
  let reached = 0;
  const waiting = new Set<() => void>();
  const progress: Progress = {
    current: async () => reached,
    waitFor: (position) =>
      new Promise((resolve) => {
        if (reached >= position) return resolve(reached);
        const wake = () => {
          if (reached < position) return;
          waiting.delete(wake);
          resolve(reached);
        };
        waiting.add(wake);
      }),
  };
  return {
    progress,
    get reached() {
      return reached;
    },
    reach(position: number) {
      reached = position;
      for (const wake of [...waiting]) wake();
    },
  };
}

let store: EventStore;
let stopping: AbortController;
beforeEach(() => {
  store = openSqliteEventStore({ path: ':memory:' });
  stopping = new AbortController();
});
afterEach(async () => {
  stopping.abort();
  await store.close();
});

/** A listener that keeps what it is given, and resolves `next` with each change. */
function collector(): ChangeListener & { changes: Change[]; next(count: number): Promise<Change[]>; failed: boolean } {
  const waiters: Array<{ count: number; resolve: (changes: Change[]) => void }> = [];
  const listener = {
    changes: [] as Change[],
    failed: false,
    change(change: Change) {
      listener.changes.push(change);
      for (const waiter of [...waiters]) {
        if (listener.changes.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(listener.changes);
        }
      }
    },
    fail() {
      listener.failed = true;
    },
    next(count: number) {
      if (listener.changes.length >= count) return Promise.resolve(listener.changes);
      return new Promise<Change[]>((resolve) => waiters.push({ count, resolve }));
    },
  };
  return listener;
}

async function appendProductEvents(productId: string, count: number): Promise<number> {
  const result = await store.append(
    `product-${productId}`,
    Array.from({ length: count }, () => ({ id: newId(), type: 'product:updated', data: { productId }, metadata })),
    { expectedRevision: 'any' },
  );
  return result.position;
}

describe('the live streams’ follower', () => {
  it('reads a changed entity only once the read models include its event, and a burst of it once', async () => {
    const held = heldProgress();
    const reads: Array<{ id: string; reachedThen: number }> = [];
    const readStore = {
      get: async (_collection: string, id: string) => {
        reads.push({ id, reachedThen: held.reached });
        return { id, version: 2, seq: 1, deleted: false, fields: {} } as unknown as ReadDocument;
      },
    } as unknown as ReadStore;
    const hub = new ChangeHub({ eventStore: store, readStore, progress: held.progress, stopping: stopping.signal, log });
    const listener = collector();
    const { at, leave } = await hub.join(listener);
    expect(at).toBe(0);

    const productId = newId();
    const last = await appendProductEvents(productId, 3);
    held.reach(last);
    const [change] = await listener.next(1);
    expect(change).toMatchObject({ resource: 'products', position: last - 2, doc: { id: productId, version: 2 } });
    // Its first event was read once the read models held all three: the later two are in that read.
    expect(reads).toEqual([{ id: productId, reachedThen: last }]);

    // Another entity's change, once projected, comes next: none came for the burst's later events.
    const other = newId();
    held.reach(await appendProductEvents(other, 1));
    expect((await listener.next(2)).map((c) => c.doc.id)).toEqual([productId, other]);
    leave();
  });

  it('ends a stream whose listener fails, and goes on for the others', async () => {
    const held = heldProgress();
    const readStore = {
      get: async (_collection: string, id: string) => ({ id, version: 0, seq: 1, deleted: false, fields: {} }) as unknown as ReadDocument,
    } as unknown as ReadStore;
    const hub = new ChangeHub({ eventStore: store, readStore, progress: held.progress, stopping: stopping.signal, log });
    const failing = {
      failed: false,
      change() {
        throw new Error('a stream that cannot take a change');
      },
      fail() {
        failing.failed = true;
      },
    };
    const healthy = collector();
    await hub.join(failing);
    await hub.join(healthy);
    held.reach(await appendProductEvents(newId(), 1));
    held.reach(await appendProductEvents(newId(), 1));
    expect(await healthy.next(2)).toHaveLength(2);
    expect(failing.failed).toBe(true);
    expect(hub.streams).toBe(1);
  });
});
