// Search on the embedded SQLite read store: how much work a query does, however many products
// match it, and that what bounds that work finds what the whole query finds.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadModels } from '../read-models/open.ts';
import { searchableSqlite } from '../read-models/testing.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';
import { productSearchContract } from './contract.ts';
import { MAX_PREFIX_WORDS, SEARCH_CANDIDATES } from './planner.ts';

productSearchContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-search-'));
  const { store, search } = openSqliteReadModels(join(dir, 'read.db'));
  return {
    store,
    search,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** A product's write, its id from its seq. */
const product = (seq: number, name: string, description: string) => ({
  collection: 'products' as const,
  doc: productDoc(`p${seq}`, name, description, { seq }),
  expectedVersion: null,
});

describe('embedded SQLite read store: search work per query', () => {
  it('ranks a bounded number of matches, and still finds an older product whose name matches', async () => {
    const store = searchableSqlite(':memory:');
    try {
      const writer = store.writer(await store.activeGeneration());
      const newer = Array.from({ length: SEARCH_CANDIDATES * 3 }, (_, i) => product(i + 2, 'Plain mug', 'Not a kettle'));
      await writer.write([product(1, 'Copper kettle', 'Heavy'), ...newer], { name: 'test', position: 1 });
      const hits = await store.search('kettle', 5);
      expect(hits.map((h) => h.doc.id)).toEqual([
        'p1',
        `p${SEARCH_CANDIDATES * 3 + 1}`,
        `p${SEARCH_CANDIDATES * 3}`,
        `p${SEARCH_CANDIDATES * 3 - 1}`,
        `p${SEARCH_CANDIDATES * 3 - 2}`,
      ]);
    } finally {
      await store.close();
    }
  });

  it('gives the place of a product deleted after its match was read to the next match', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const store = searchableSqlite(join(dir, 'read.db'));
    try {
      const g = await store.activeGeneration();
      const kettles = [1, 2, 3].map((seq) => product(seq, 'Copper kettle', 'Heavy'));
      const mugs = [4, 5, 6].map((seq) => product(seq, 'Plain mug', 'Not a kettle'));
      await store.writer(g).write([...kettles, ...mugs], { name: 'test', position: 1 });
      // The moment between a search's two reads, held still: the best match is deleted (by the
      // projector, in another connection) while the index still holds it.
      const projector = new DatabaseSync(join(dir, 'read.db'));
      projector.prepare(`UPDATE products_g${g} SET deleted = 1 WHERE id = 'p3'`).run();
      projector.close();
      const hits = await store.search('kettle', 3);
      expect(hits.map((h) => h.doc.id)).toEqual(['p2', 'p1', 'p6']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded SQLite read store: a query whose words are listed too often to intersect', () => {
  const names = ['Copper kettle', 'Steel kettle', 'Crème brûlée dish', 'Copper pan', 'Electric kettle', 'Kettlebell'];
  const descriptions = ['The best of the range', 'Boils water fast', 'Für die Straße', 'A kettle for the road', 'Heavy and solid'];
  const catalogue = Array.from({ length: 120 }, (_, i) =>
    product(i + 1, names[i % names.length]!, descriptions[(i * 7) % descriptions.length]!),
  );
  const queries = [
    'copper kettle the',
    'kettle the road',
    'copper kettle',
    'the kettle',
    'kettle the',
    'kettle co',
    'steel kettle boils',
    'creme bru',
    'fur die stra',
    'ketle copper',
    'elec kett',
    'kettle kettlebell',
    'heavy so',
  ];

  it('finds what the whole intersection finds, when the words checked in the text are among the newest rows of the others', async () => {
    const whole = searchableSqlite(':memory:');
    // Every query of two words or more over the budget: all but the rarest are looked for in the
    // text (a word alone, read in parts); and a budget that two of three words fit (an intersection, read row by row).
    const bounded = [1, 100].map((postings) => searchableSqlite(':memory:', { searchBounds: { postings, scanned: 1000 } }));
    try {
      for (const store of [whole, ...bounded]) {
        await store.writer(await store.activeGeneration()).write(catalogue, { name: 'test', position: 1 });
      }
      for (const q of queries) {
        const expected = await whole.search(q, 50);
        expect(expected.length, q).toBeGreaterThan(0);
        for (const store of bounded) {
          expect(
            (await store.search(q, 50)).map((h) => [h.doc.id, h.score]),
            q,
          ).toEqual(expected.map((h) => [h.doc.id, h.score]));
        }
      }
    } finally {
      for (const store of [whole, ...bounded]) await store.close();
    }
  });

  it('reads on past the first rows of its rarest word when the other words are rare among them', async () => {
    const whole = searchableSqlite(':memory:');
    const bounded = searchableSqlite(':memory:', { searchBounds: { postings: 1, scanned: 1000 } });
    try {
      // `copper` (300 products) is rarer than `kettle` (350), and its newest 200 are pans.
      const rows = [
        ...Array.from({ length: 250 }, (_, i) => product(i + 1, 'Steel kettle', 'Plain')),
        ...Array.from({ length: 100 }, (_, i) => product(i + 251, 'Copper kettle', 'Plain')),
        ...Array.from({ length: 200 }, (_, i) => product(i + 351, 'Copper pan', 'Plain')),
      ];
      for (const store of [whole, bounded]) await store.writer(await store.activeGeneration()).write(rows, { name: 'test', position: 1 });
      const expected = (await whole.search('copper kettle', 50)).map((h) => h.doc.id);
      expect(expected).toHaveLength(50);
      expect((await bounded.search('copper kettle', 50)).map((h) => h.doc.id)).toEqual(expected);
    } finally {
      await whole.close();
      await bounded.close();
    }
  });

  it('reads no more than the scan cap of the rows its rarest words match, leaves out a match older than those, and says so', async () => {
    const { store, search } = openSqliteReadModels(':memory:', { searchBounds: { postings: 1, scanned: 10 } });
    try {
      // The one copper kettle is older than the newest 10 products that hold `kettle`, the rarer word.
      const kettles = Array.from({ length: 10 }, (_, i) => product(i + 2, 'Steel kettle', 'Plain'));
      const copper = Array.from({ length: 30 }, (_, i) => product(i + 12, 'Copper pan', 'Plain'));
      await store.writer(await store.activeGeneration()).write([product(1, 'Copper kettle', 'Plain'), ...kettles, ...copper], {
        name: 'test',
        position: 1,
      });
      expect(await search.search('copper kettle', 10)).toEqual({ hits: [], complete: false });
      // One more kettle in the newest 10 and it is found; the older one is still past the cap.
      await store.writer(await store.activeGeneration()).write([product(42, 'Copper kettle', 'Plain')], { name: 'test', position: 2 });
      const found = await search.search('copper kettle', 10);
      expect(found.hits.map((h) => h.doc.id)).toEqual(['p42']);
      expect(found.complete).toBe(false);
      // A query the engine intersects whole, or whose rarest word's rows end before the cap, is complete.
      expect(await search.search('copper', 10)).toMatchObject({ complete: true });
      const bowls = Array.from({ length: 3 }, (_, i) => product(i + 43, 'Brass bowl', 'Plain'));
      await store.writer(await store.activeGeneration()).write(bowls, { name: 'test', position: 3 });
      const brass = await search.search('brass plain', 10);
      expect(brass.hits).toHaveLength(3);
      expect(brass.complete).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('embedded SQLite read store: a last word longer than the prefix index', () => {
  it(`stands for the ${MAX_PREFIX_WORDS} commonest words it starts, so its cost is bounded however many there are`, async () => {
    const store = searchableSqlite(':memory:');
    try {
      const writer = store.writer(await store.activeGeneration());
      // Words zorb00 … zorbNN, word i held by i + 1 products (the rarest, zorb00, by one only),
      // the rarest written last: were every word gathered, the rarest would be the newest matches.
      const count = MAX_PREFIX_WORDS + 3;
      const writes = [];
      let seq = 1;
      for (let i = count - 1; i >= 0; i--) {
        const word = `zorb${String(i).padStart(2, '0')}`;
        for (let copy = 0; copy <= i; copy++) {
          writes.push({
            collection: 'products' as const,
            doc: productDoc(`${word}-${copy}`, 'Gadget', word, { seq: seq++ }),
            expectedVersion: null,
          });
        }
      }
      await writer.write(writes, { name: 'test', position: 1 });
      const words = async (q: string) => new Set((await store.search(q, 1000)).map((h) => h.doc.fields.description));
      const found = await words('zorb');
      expect(found.size).toBeGreaterThan(0);
      // The three rarest words are left out; each of the commonest could be among the candidates.
      for (const rare of ['zorb00', 'zorb01', 'zorb02']) expect(found.has(rare)).toBe(false);
      // Typed further, a word left out is found again.
      expect(await words('zorb00')).toEqual(new Set(['zorb00']));
      expect(await words('zorb0')).toContain('zorb00');
    } finally {
      await store.close();
    }
  });
});
