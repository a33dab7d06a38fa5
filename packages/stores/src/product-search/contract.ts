// The contract every ProductSearch adapter passes: products written through the read store, as
// the projector writes them, and found by relevance through the search.
import { describe, expect, it } from 'vitest';
import { READ_MODELS_CHECKPOINT, type ReadDocument, type ReadStore } from '../read-store/port.ts';
import { changed, productDoc } from '@eventide/testing/read-documents.ts';
import type { ProductSearch } from './port.ts';

export interface ProductSearchHarness {
  /** Where products are written. */
  store: ReadStore;
  search: ProductSearch;
  dispose: () => Promise<void>;
}

const product = (id: string, name: string, description = '') => productDoc(id, name, description);

/** New products, as the writes that insert them. */
const inserts = (products: ReadDocument<'products'>[]) =>
  products.map((d) => ({ collection: 'products' as const, doc: d, expectedVersion: null }));

export function productSearchContract(name: string, open: () => Promise<ProductSearchHarness>): void {
  describe(`ProductSearch contract: ${name}`, () => {
    async function withSearch(body: (store: ReadStore, search: ProductSearch) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness.store, harness.search);
      } finally {
        await harness.dispose();
      }
    }

    const cp = (position: number) => ({ name: 'test', position });
    /** The ids a search finds, best first. */
    const searchIds = (search: ProductSearch) => async (q: string) => (await search.search(q, 10)).hits.map((h) => h.doc.id);

    it('searches products by relevance, literally, and keeps the index in step', () =>
      withSearch(async (store, search) => {
        const writer = store.writer(await store.activeGeneration());
        const kettle = product('k', 'Electric kettle', 'Boils water fast');
        const pot = product('t', 'Tea pot', 'Pairs well with a kettle');
        const gone = product('g', 'Kettle descaler', 'Removes scale');
        await writer.write(inserts([kettle, pot, gone]), cp(1));
        await writer.write([{ collection: 'products', doc: { ...gone, version: 1, deleted: true }, expectedVersion: 0 }], cp(2));
        const { hits } = await search.search('kettle', 10);
        expect(hits.map((h) => h.doc.id)).toEqual(['k', 't']);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        expect((await search.search('ELECTRIC', 10)).hits.map((h) => h.doc.id)).toEqual(['k']);
        expect((await search.search('kett', 10)).hits.map((h) => h.doc.id).sort()).toEqual(['k', 't']);
        // Query syntax and regular expressions are only words and punctuation here.
        expect((await search.search('(a+)+$', 10)).hits.map((h) => h.doc.id)).toEqual(['t']); // the word "a"
        expect((await search.search('.*', 10)).hits).toEqual([]);
        expect((await search.search('.* OR kettle"', 10)).hits).toEqual([]);
        expect((await search.search('{"$regex": ".*"}', 10)).hits).toEqual([]);
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
        expect((await search.search('electric', 10)).hits.map((h) => h.doc.fields.name)).toEqual(['Electric jug']);
      }));

    it('takes the last word of two letters or more as the start of a word, and ranks whole words and names first', () =>
      withSearch(async (store, search) => {
        const writer = store.writer(await store.activeGeneration());
        const products = [
          product('k', 'Electric kettle', 'Boils water fast'),
          product('e', 'Electrician kit', 'For a kettle'),
          product('s', 'Kettle stand', 'For electric kettles'),
          product('w', 'Wooden spoon', 'A kettle of fish'),
        ];
        await writer.write(inserts(products), cp(1));
        const ids = searchIds(search);
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
      withSearch(async (store, search) => {
        const writer = store.writer(await store.activeGeneration());
        const jacket = product('j', 'Rain jacket', 'Waterproof shell');
        const bottle = product('b', 'Bottle', 'Keeps water cold');
        await writer.write(inserts([jacket, bottle]), cp(1));
        const ids = async (q: string) => (await searchIds(search)(q)).sort();
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
      withSearch(async (store, search) => {
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
        const ids = searchIds(search);
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
      withSearch(async (store, search) => {
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
        const ids = async (q: string) => (await searchIds(search)(q)).sort();
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

    it('searches the generation served: a rebuild is found once it is promoted', () =>
      withSearch(async (store, search) => {
        const projected = (position: number) => ({ name: READ_MODELS_CHECKPOINT, position });
        await store.writer(await store.activeGeneration()).write(inserts([product('o', 'Old kettle')]), projected(1));
        const fresh = await store.createGeneration();
        await store.writer(fresh).write(inserts([product('n', 'New kettle')]), projected(2));
        expect(await searchIds(search)('kettle')).toEqual(['o']);
        expect(await store.promote(fresh)).toBe(true);
        expect(await searchIds(search)('kettle')).toEqual(['n']);
      }));
  });
}
