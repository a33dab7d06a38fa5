// The contract every ReadStore adapter passes.
import { describe, expect, it } from 'vitest';
import { READ_MODELS_CHECKPOINT, type ReadDocument, type ReadStore } from './port.ts';
import { changed, orderDoc, productDoc, userDoc } from './testing/documents.ts';

export interface ReadStoreHarness {
  store: ReadStore;
  dispose: () => Promise<void>;
}

const product = (id: string, name: string, description = '') => productDoc(id, name, description);

/** New products, as the writes that insert them. */
const inserts = (products: ReadDocument<'products'>[]) =>
  products.map((d) => ({ collection: 'products' as const, doc: d, expectedVersion: null }));

/** The ids a search finds, best first. */
const searchIds = (store: ReadStore) => async (q: string) => (await store.search(q, 10)).map((h) => h.doc.id);

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

    it('searches products by relevance, literally, and keeps the index in step', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const kettle = product('k', 'Electric kettle', 'Boils water fast');
        const pot = product('t', 'Tea pot', 'Pairs well with a kettle');
        const gone = product('g', 'Kettle descaler', 'Removes scale');
        await writer.write(inserts([kettle, pot, gone]), cp(1));
        await writer.write([{ collection: 'products', doc: { ...gone, version: 1, deleted: true }, expectedVersion: 0 }], cp(2));
        const hits = await store.search('kettle', 10);
        expect(hits.map((h) => h.doc.id)).toEqual(['k', 't']);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        expect((await store.search('ELECTRIC', 10)).map((h) => h.doc.id)).toEqual(['k']);
        expect((await store.search('kett', 10)).map((h) => h.doc.id).sort()).toEqual(['k', 't']);
        // Query syntax and regular expressions are only words and punctuation here.
        expect((await store.search('(a+)+$', 10)).map((h) => h.doc.id)).toEqual(['t']); // the word "a"
        expect(await store.search('.*', 10)).toEqual([]);
        expect(await store.search('.* OR kettle"', 10)).toEqual([]);
        expect(await store.search('{"$regex": ".*"}', 10)).toEqual([]);
        await writer.write(
          [
            {
              collection: 'products',
              doc: { ...kettle, version: 1, fields: { ...kettle.fields, name: 'Electric jug' } },
              expectedVersion: 0,
            },
          ],
          cp(3),
        );
        expect((await store.search('electric', 10)).map((h) => h.doc.fields.name)).toEqual(['Electric jug']);
      }));

    it('takes the last word of two letters or more as the start of a word, and ranks whole words and names first', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const products = [
          product('k', 'Electric kettle', 'Boils water fast'),
          product('e', 'Electrician kit', 'For a kettle'),
          product('s', 'Kettle stand', 'For electric kettles'),
          product('w', 'Wooden spoon', 'A kettle of fish'),
        ];
        await writer.write(inserts(products), cp(1));
        const ids = searchIds(store);
        expect(await ids('electric kett')).toEqual(['k', 's']);
        // Every word may be cut short: "elec" stands for the name words it starts.
        expect(await ids('elec kettle')).toEqual(['k', 's', 'e']);
        // A whole word in a name, then a name that starts with the term, then descriptions.
        expect(await ids('electric')).toEqual(['k', 'e', 's']);
        // A one-letter term matches a whole word only: "a" is a word of two descriptions.
        expect((await ids('kettle a')).sort()).toEqual(['e', 'w']);
        expect(await ids('x')).toEqual([]);
      }));

    it('completes a last word from the words of descriptions too, and forgets the words no product holds any more', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const jacket = product('j', 'Rain jacket', 'Waterproof shell');
        const bottle = product('b', 'Bottle', 'Keeps water cold');
        await writer.write(inserts([jacket, bottle]), cp(1));
        const ids = async (q: string) => (await searchIds(store)(q)).sort();
        expect(await ids('wate')).toEqual(['b', 'j']);
        expect(await ids('waterp')).toEqual(['j']);
        expect(await ids('rain shel')).toEqual(['j']);
        await writer.write(
          [
            {
              collection: 'products',
              doc: { ...jacket, version: 1, fields: { ...jacket.fields, description: 'Windproof shell' } },
              expectedVersion: 0,
            },
          ],
          cp(2),
        );
        expect(await ids('waterp')).toEqual([]);
        expect(await ids('wate')).toEqual(['b']);
        expect(await ids('windp')).toEqual(['j']);
      }));

    it('forgives a typo in a word of five letters or more, ranks it below exact matches, and follows renames', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const products = [
          product('k', 'Electric kettle', 'Boils water fast'),
          product('s', 'Kettle stand', 'Holds one'),
          product('d', 'Kettel drum', 'A drum named after its maker'),
          product('t', 'Teapot', 'Porcelain'),
          product('c', 'Charger', 'Comes with a cable'),
          product('b', 'Oak table', 'Solid oak'),
        ];
        await writer.write(inserts(products), cp(1));
        const ids = searchIds(store);
        expect((await ids('ketle')).sort()).toEqual(['k', 's']);
        expect((await ids('teapto')).sort()).toEqual(['t']);
        expect(await ids('teapto porcelain')).toEqual(['t']);
        // A word some product holds stands for itself: "kettel" is the drum, not a typo of kettle.
        expect(await ids('kettel')).toEqual(['d']);
        // So does a word some description holds: "cable" is not a typo of the table's name.
        expect(await ids('cable')).toEqual(['c']);
        expect(await ids('cable oak')).toEqual([]);
        // Four letters are too few to forgive: "tepot" is not "teapot" with a letter missing.
        expect(await ids('tepo pot')).toEqual([]);
        // An exact match ranks above a forgiven one.
        await writer.write([{ collection: 'products', doc: product('x', 'Ketle', 'A brand'), expectedVersion: null }], cp(2));
        expect((await ids('ketle'))[0]).toBe('x');

        // The vocabulary follows the names: once no name has "kettle", nothing is a typo of it.
        const renamed = (i: number, name: string) => ({ ...products[i]!, version: 1, fields: { ...products[i]!.fields, name } });
        await writer.write(
          [
            { collection: 'products', doc: renamed(0, 'Electric jug'), expectedVersion: 0 },
            { collection: 'products', doc: renamed(1, 'Pot stand'), expectedVersion: 0 },
          ],
          cp(3),
        );
        expect(await ids('ketle')).toEqual(['x']);
        expect(await ids('jugg')).toEqual([]);
      }));

    it('keeps search, its vocabulary and the totals right when one batch changes a product several times', () =>
      withStore(async (store) => {
        const writer = store.writer(await store.activeGeneration());
        const older = product('a', 'Copper kettle', 'Old stock');
        await writer.write([{ collection: 'products', doc: older, expectedVersion: null }], cp(1));
        // Newer products first, then changes to the older one, then a product added and deleted: all one batch.
        const steel = product('s', 'Steel kettle', 'Brushed');
        const brief = product('b', 'Brass whistle', 'Loud');
        const version = (d: ReadDocument<'products'>, v: number, fields: { name?: string; description?: string }, deleted = false) =>
          changed('products', d, v, fields, deleted);
        await writer.write(
          [
            { collection: 'products', doc: steel, expectedVersion: null },
            version(older, 1, { name: 'Copper jug' }),
            { collection: 'products', doc: brief, expectedVersion: null },
            version(older, 2, { name: 'Copper saucepan', description: 'New stock' }),
            version(brief, 1, {}, true),
          ],
          cp(2),
        );
        const ids = async (q: string) => (await searchIds(store)(q)).sort();
        expect(await ids('kettle')).toEqual(['s']);
        expect(await ids('jug')).toEqual([]);
        expect(await ids('saucepan')).toEqual(['a']);
        expect(await ids('old')).toEqual([]);
        expect(await ids('new stock')).toEqual(['a']);
        expect(await ids('brass')).toEqual([]);
        // The vocabulary holds what the names hold now: "kettle" (one name left of two) and "saucepan"
        // forgive a typo, "whistle" is gone.
        expect(await ids('ketle')).toEqual(['s']);
        expect(await ids('saucepna')).toEqual(['a']);
        expect(await ids('whistel')).toEqual([]);
        expect((await store.list('products', { limit: 10, offset: 0 })).total).toBe(2);
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
