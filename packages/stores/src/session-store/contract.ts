// The contract every SessionStore adapter passes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import type { SessionStore } from './port.ts';

export function sessionStoreContract(name: string, open: () => Promise<{ store: SessionStore; dispose: () => Promise<void> }>): void {
  describe(`SessionStore contract: ${name}`, () => {
    async function withStore(body: (store: SessionStore) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness.store);
      } finally {
        await harness.dispose();
      }
    }
    const key = () => randomUUID();
    const HOUR = 3_600_000;

    it('keeps a record until it is destroyed', () =>
      withStore(async (store) => {
        const k = key();
        expect(await store.get(k)).toBeUndefined();
        await store.set(k, { userId: 'u1', data: { a: 1 } }, HOUR);
        expect(await store.get(k)).toEqual({ userId: 'u1', data: { a: 1 } });
        await store.set(k, { userId: 'u1', data: { a: 2 } }, HOUR);
        expect(await store.get(k)).toEqual({ userId: 'u1', data: { a: 2 } });
        await store.destroy(k);
        expect(await store.get(k)).toBeUndefined();
      }));

    it('forgets a record once its time to live has passed', () =>
      withStore(async (store) => {
        const k = key();
        await store.set(k, { data: { a: 1 } }, 20);
        await until(async () => (await store.get(k)) === undefined, 'the record to expire');
        expect(await store.take(k)).toBeUndefined();
      }));

    it('gives a record to exactly one of many concurrent takes', () =>
      withStore(async (store) => {
        const k = key();
        await store.set(k, { data: { flow: 'x' } }, HOUR);
        const taken = await Promise.all(Array.from({ length: 10 }, () => store.take(k)));
        expect(taken.filter(Boolean)).toEqual([{ data: { flow: 'x' } }]);
        expect(await store.get(k)).toBeUndefined();
      }));

    it('ends every session of one user and no one else’s', () =>
      withStore(async (store) => {
        const [a1, a2, b] = [key(), key(), key()];
        await store.set(a1, { userId: 'alice', data: {} }, HOUR);
        await store.set(a2, { userId: 'alice', data: {} }, HOUR);
        await store.set(b, { userId: 'bob', data: {} }, HOUR);
        expect(await store.destroyUser('alice')).toBe(2);
        expect(await store.get(a1)).toBeUndefined();
        expect(await store.get(a2)).toBeUndefined();
        expect(await store.get(b)).toBeDefined();
      }));
  });
}
