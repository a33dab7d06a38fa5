// The contract every ReadStore adapter passes.
import { describe, expect, it } from 'vitest';
import { type ListQuery, READ_MODELS_CHECKPOINT, type ReadDocument, type ReadStore } from './port.ts';
import { type ListOrder, type ListPosition, positionOf } from './list-keys.ts';
import { changed, orderDoc, productDoc, userDoc } from '@eventide/testing/read-documents.ts';

export interface ReadStoreHarness {
  store: ReadStore;
  dispose: () => Promise<void>;
}

const product = (id: string, name: string, description = '') => productDoc(id, name, description);

/** New products, as the writes that insert them. */
const inserts = (products: ReadDocument<'products'>[]) =>
  products.map((d) => ({ collection: 'products' as const, doc: d, expectedVersion: null }));

export function readStoreContract(name: string, open: () => Promise<ReadStoreHarness>): void {
  describe(`ReadStore contract: ${name}`, () => {
    async function withStore(body: (store: ReadStore) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness.store);
      } finally {
        await harness.dispose();
      }
    }

    const cp = (position: number) => ({ name: 'test', position });

    it('inserts a document once: a replayed insert changes nothing', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        await writer.write([{ collection: 'users', doc: userDoc('u1', { name: 'Ann' }), expectedVersion: null }], cp(1));
        await writer.write([{ collection: 'users', doc: userDoc('u1', { name: 'Replay' }), expectedVersion: null }], cp(1));
        expect((await store.get('users', 'u1'))?.fields).toEqual(userDoc('u1', { name: 'Ann' }).fields);
      }));

    it('applies an update only on the version just before it', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const created = userDoc('u2', { name: 'v0' });
        await writer.write([{ collection: 'users', doc: created, expectedVersion: null }], cp(1));
        await writer.write([changed('users', created, 1, { name: 'v1' })], cp(2));
        await writer.write([changed('users', created, 1, { name: 'replayed' })], cp(2));
        await writer.write([changed('users', created, 3, { name: 'gap' })], cp(3));
        expect(await store.get('users', 'u2')).toMatchObject({ version: 1, fields: { name: 'v1' } });
      }));

    it('moves the checkpoint with the data, never backwards', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        expect(await writer.checkpoint('test')).toBe(0);
        await writer.write([{ collection: 'users', doc: userDoc('u3'), expectedVersion: null }], cp(7));
        expect(await writer.checkpoint('test')).toBe(7);
        await writer.write([], cp(5));
        expect(await writer.checkpoint('test')).toBe(7);
        expect(await writer.checkpoint('other')).toBe(0);
      }));

    it('finds documents by id, tombstones included', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const a = orderDoc('a', 'u1');
        await writer.write(
          [
            { collection: 'orders', doc: a, expectedVersion: null },
            { collection: 'orders', doc: orderDoc('b', 'u1'), expectedVersion: null },
          ],
          cp(1),
        );
        await writer.write([{ collection: 'orders', doc: { ...a, version: 1, deleted: true }, expectedVersion: 0 }], cp(2));
        const found = await writer.getMany('orders', ['a', 'b', 'missing']);
        expect([...found.keys()].sort()).toEqual(['a', 'b']);
        expect(found.get('a')!.deleted).toBe(true);
        expect((await store.get('orders', 'a'))?.deleted).toBe(true);
        expect(await store.get('orders', 'missing')).toBeUndefined();
      }));

    it('lists live documents newest first, by offset with a total, and by keyset', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const docs = Array.from({ length: 7 }, (_, i) => product(`p${i}`, `Product ${i}`));
        await writer.write(inserts(docs), cp(1));
        await writer.write([{ collection: 'products', doc: { ...docs[3]!, version: 1, deleted: true }, expectedVersion: 0 }], cp(2));
        const first = await store.list('products', { limit: 4, offset: 0 });
        expect(first.items.map((d) => d.id)).toEqual(['p6', 'p5', 'p4', 'p2']);
        expect(first.total).toBe(6);
        const second = await store.list('products', { limit: 4, offset: 4 });
        expect(second.items.map((d) => d.id)).toEqual(['p1', 'p0']);
        const keyset = await store.list('products', { limit: 2, beforeSeq: first.items[2]!.seq });
        expect(keyset.items.map((d) => d.id)).toEqual(['p2', 'p1']);
        const top = await store.list('products', { limit: 2, beforeSeq: null });
        expect(top.items.map((d) => d.id)).toEqual(['p6', 'p5']);
        expect(top.total).toBeUndefined();
      }));

    it('orders products by price and by name, and pages each order by keyset within a currency and a price range', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const priced = (id: string, name: string, amount: number, currency = 'EUR', category?: string) =>
          productDoc(id, name, '', { price: { amount, currency }, ...(category ? { category } : {}) });
        const docs = [
          priced('a', 'banana', 300),
          priced('b', 'Apple', 100),
          priced('c', 'cherry', 300),
          priced('d', 'apple pie', 50, 'USD'),
          priced('e', 'Date', 200, 'EUR', 'Kitchen'),
          priced('f', 'Fig', 150),
        ];
        await writer.write(inserts(docs), cp(1));
        await writer.write([changed('products', docs[5]!, 1, {}, true)], cp(2));
        const ids = (page: { items: ReadDocument[] }) => page.items.map((d) => d.id);
        /** Every page of an order, two at a time, each continuing after the last one's position. */
        async function walk(order: ListOrder | undefined, rest: Partial<ListQuery> = {}): Promise<string[]> {
          const seen: string[] = [];
          let after: ListPosition | null = null;
          for (let pages = 0; pages < 10; pages++) {
            const page = await store.list('products', { ...rest, ...(order ? { order } : {}), limit: 2, after });
            seen.push(...ids(page));
            if (page.items.length < 2) return seen;
            after = positionOf('products', order, page.items[1]!);
          }
          throw new Error('the walk did not end');
        }
        // By price: within a currency (its code first), equal prices by seq.
        const price = { by: 'price', descending: false };
        expect(await walk(price)).toEqual(['b', 'e', 'a', 'c', 'd']);
        expect(await walk({ ...price, descending: true })).toEqual(['d', 'c', 'a', 'e', 'b']);
        // By name, without regard to the case of letters.
        expect(await walk({ by: 'name', descending: false })).toEqual(['b', 'd', 'a', 'c', 'e']);
        expect(await walk(undefined)).toEqual(['e', 'd', 'c', 'b', 'a']);
        const range = { keys: { currency: { equals: 'EUR' }, amount: { min: 150, max: 300 } } };
        expect(await walk(price, range)).toEqual(['e', 'a', 'c']);
        expect(await walk(undefined, range)).toEqual(['e', 'c', 'a']);
        expect(await walk(price, { filter: { category: 'Kitchen' } })).toEqual(['e']);
        const offset = await store.list('products', { order: price, limit: 2, offset: 1 });
        expect([ids(offset), offset.total]).toEqual([['e', 'a'], 5]);
        await expect(store.list('products', { ...range, limit: 2, offset: 0 })).rejects.toThrow(/cannot count/);
        await expect(store.list('products', { order: { by: 'colour', descending: false }, limit: 2, after: null })).rejects.toThrow(
          /cannot be listed by colour/,
        );
      }));

    it('filters lists by the fields a collection allows', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        await writer.write(
          [
            { collection: 'orders', doc: orderDoc('o1', 'u1', 'draft'), expectedVersion: null },
            { collection: 'orders', doc: orderDoc('o2', 'u1', 'paid'), expectedVersion: null },
            { collection: 'orders', doc: orderDoc('o3', 'u2', 'paid'), expectedVersion: null },
          ],
          cp(1),
        );
        const byUser = await store.list('orders', { limit: 10, offset: 0, filter: { userId: 'u1' } });
        expect(byUser.items.map((d) => d.id)).toEqual(['o2', 'o1']);
        const both = await store.list('orders', { limit: 10, offset: 0, filter: { userId: 'u1', status: 'paid' } });
        expect(both.items.map((d) => d.id)).toEqual(['o2']);
        expect(both.total).toBe(1);
        await expect(store.list('orders', { limit: 10, offset: 0, filter: { email: 'x' } })).rejects.toThrow(/cannot be filtered/);
      }));

    it('keeps every total exact as documents change their filtered fields, are deleted, and writes replay', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const o1 = orderDoc('o1', 'u1', 'draft');
        const o2 = orderDoc('o2', 'u1', 'draft');
        const o3 = orderDoc('o3', 'u2', 'paid');
        const inserts = [o1, o2, o3].map((d) => ({ collection: 'orders' as const, doc: d, expectedVersion: null }));
        await writer.write(inserts, cp(1));
        await writer.write(inserts, cp(1)); // a replay changes nothing
        await writer.write([changed('orders', o1, 1, { status: 'paid' })], cp(2));
        await writer.write([{ collection: 'orders', doc: { ...o2, version: 1, deleted: true }, expectedVersion: 0 }], cp(3));
        await writer.write([{ collection: 'orders', doc: { ...o2, version: 1, deleted: true }, expectedVersion: 0 }], cp(3));
        const total = async (filter: Record<string, string>) => (await store.list('orders', { limit: 1, offset: 0, filter })).total;
        expect(await total({})).toBe(2);
        expect(await total({ userId: 'u1' })).toBe(1);
        expect(await total({ status: 'draft' })).toBe(0);
        expect(await total({ status: 'paid' })).toBe(2);
        expect(await total({ userId: 'u1', status: 'paid' })).toBe(1);
        expect(await total({ status: 'paid', userId: 'u2' })).toBe(1);
        expect(await total({ userId: 'u3' })).toBe(0);
        expect((await store.list('users', { limit: 1, offset: 0 })).total).toBe(0);
      }));

    it('finds a live user by email, whatever the case, never a deleted one', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const ada = userDoc('u1', { name: 'Ada', email: 'Ada.Lovelace@Example.org' });
        await writer.write(
          [
            { collection: 'users', doc: ada, expectedVersion: null },
            { collection: 'users', doc: userDoc('u2', { name: 'Grace', email: 'grace@example.org' }), expectedVersion: null },
          ],
          cp(1),
        );
        expect((await store.userByEmail('ada.lovelace@example.ORG'))?.id).toBe('u1');
        expect((await store.userByEmail(' grace@example.org '))?.id).toBe('u2');
        expect(await store.userByEmail('ada@example.org')).toBeUndefined();
        expect(await store.userByEmail('{"$ne":null}')).toBeUndefined();
        await writer.write([{ collection: 'users', doc: { ...ada, version: 1, deleted: true }, expectedVersion: 0 }], cp(2));
        expect(await store.userByEmail('ada.lovelace@example.org')).toBeUndefined();
      }));

    it("keeps followers' checkpoints apart from generations, never moving them back", () =>
      withStore(async (store) => {
        expect(await store.loadCheckpoint('publisher')).toBe(0);
        await store.saveCheckpoint('publisher', 40);
        await store.saveCheckpoint('publisher', 30);
        expect(await store.loadCheckpoint('publisher')).toBe(40);
        await store.promote(await store.createGeneration());
        expect(await store.loadCheckpoint('publisher')).toBe(40);
      }));

    it('rebuilds into a fresh generation and swaps it in', () =>
      withStore(async (store) => {
        const live = await store.activeGeneration();
        await store.writer(live).write([{ collection: 'users', doc: userDoc('old'), expectedVersion: null }], cp(9));
        const fresh = await store.createGeneration();
        expect(fresh).not.toBe(live);
        const writer = store.writer(fresh);
        expect(await writer.checkpoint('test')).toBe(0);
        await writer.write([{ collection: 'users', doc: userDoc('new'), expectedVersion: null }], cp(4));
        expect(await store.get('users', 'new')).toBeUndefined();
        expect(await store.get('users', 'old')).toBeDefined();
        expect(await store.servedCheckpoint('test')).toBe(9);
        expect(await store.promote(fresh)).toBe(true);
        expect(await store.activeGeneration()).toBe(fresh);
        expect(await store.servedCheckpoint('test')).toBe(4);
        expect(await store.get('users', 'new')).toBeDefined();
        expect(await store.get('users', 'old')).toBeUndefined();
        expect((await store.list('users', { limit: 10, offset: 0 })).items.map((d) => d.id)).toEqual(['new']);
      }));
    it('refuses to promote a generation behind the served one, and promotes it once it has caught up', () =>
      withStore(async (store) => {
        const projected = (position: number) => ({ name: READ_MODELS_CHECKPOINT, position });
        const live = await store.activeGeneration();
        await store.writer(live).write([{ collection: 'users', doc: userDoc('a'), expectedVersion: null }], projected(9));
        const fresh = await store.createGeneration();
        await store.writer(fresh).write([{ collection: 'users', doc: userDoc('a'), expectedVersion: null }], projected(4));
        // Reads have been told they include position 9: the fresh generation would take 5 to 9 back.
        expect(await store.promote(fresh)).toBe(false);
        expect(await store.activeGeneration()).toBe(live);
        expect(await store.servedCheckpoint(READ_MODELS_CHECKPOINT)).toBe(9);
        expect(await store.get('users', 'a')).toBeDefined();

        await store.writer(fresh).write([{ collection: 'users', doc: userDoc('b'), expectedVersion: null }], projected(9));
        expect(await store.promote(fresh)).toBe(true);
        expect(await store.activeGeneration()).toBe(fresh);
        expect(await store.servedCheckpoint(READ_MODELS_CHECKPOINT)).toBe(9);
        expect(await store.get('users', 'b')).toBeDefined();
      }));
  });
}
