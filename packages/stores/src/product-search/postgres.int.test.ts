// Search on the PostgreSQL read store: what bounds a query's work finds what the whole query finds
// when the words it checks in the text are among the newest matches of the others, and says when a
// bound stopped it (complete: false). On a throwaway cluster, a database of its own per store.
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';
import { openPostgresReadModels } from '../read-models/open.ts';
import type { PostgresSearchBounds } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());
if (unavailable) console.warn(`SKIPPED: search's bounds on PostgreSQL: ${unavailable}`);

/** A product's write, its id from its seq. */
const product = (seq: number, name: string, description: string) => ({
  collection: 'products' as const,
  doc: productDoc(`p${seq}`, name, description, { seq }),
  expectedVersion: null,
});

async function searchable(writes: ReturnType<typeof product>[], searchBounds?: PostgresSearchBounds) {
  server ??= startPostgres();
  const opened = await openPostgresReadModels(await (await server).database(), searchBounds ? { searchBounds } : {});
  await opened.store.writer(await opened.store.activeGeneration()).write(writes, { name: 'test', position: 1 });
  return opened;
}

describe.skipIf(unavailable)('PostgreSQL read store: a query whose words are listed too often to gather', () => {
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

  it('finds what the whole query finds, gathering the rarest words and checking the others in the text, or reading the newest rows', async () => {
    const whole = await searchable(catalogue);
    // A budget no word fits (every word common: the newest rows read one by one), and one that the rarer words fit.
    const bounded = await Promise.all([1, 100].map((postings) => searchable(catalogue, { postings, scanned: 1000, rows: 1000 })));
    try {
      for (const q of queries) {
        const expected = await whole.search.search(q, 50);
        expect(expected.hits.length, q).toBeGreaterThan(0);
        expect(expected.complete, q).toBe(true);
        for (const { search } of bounded) {
          const found = await search.search(q, 50);
          expect(
            found.hits.map((h) => [h.doc.id, h.score]),
            q,
          ).toEqual(expected.hits.map((h) => [h.doc.id, h.score]));
          expect(found.complete, q).toBe(true);
        }
      }
    } finally {
      for (const { store } of [whole, ...bounded]) await store.close();
    }
  });

  it('says when a bound stopped it: an older product that holds every word may be missing', async () => {
    // One old copper kettle, then 200 newer products holding one of its words each.
    const writes = [
      product(1, 'Copper kettle', 'Old'),
      ...Array.from({ length: 200 }, (_, i) => product(i + 2, i % 2 === 0 ? 'Copper pan' : 'Steel kettle', 'New')),
    ];
    const whole = await searchable(writes);
    const rowsBound = await searchable(writes, { postings: 1, scanned: 1000, rows: 50 });
    const scanBound = await searchable(writes, { postings: 150, scanned: 20, rows: 1000 });
    try {
      expect(await whole.search.search('copper kettle', 10)).toMatchObject({ hits: [{ doc: { id: 'p1' } }], complete: true });
      // Both words common: the newest 50 rows read, the old kettle not among them.
      expect(await rowsBound.search.search('copper kettle', 10)).toEqual({ hits: [], complete: false });
      // One word gathered, the other checked in its 20 newest matches: not far enough back.
      expect(await scanBound.search.search('copper kettle', 10)).toEqual({ hits: [], complete: false });
      // A common word alone: its newest matches among the rows read, and, short of what it looks
      // for, said to be stopped.
      const copper = await rowsBound.search.search('copper', 10);
      expect(copper.complete).toBe(false);
      expect(copper.hits.map((h) => h.doc.seq).sort((a, b) => b - a)).toEqual(Array.from({ length: 10 }, (_, i) => 200 - 2 * i));
    } finally {
      for (const { store } of [whole, rowsBound, scanBound]) await store.close();
    }
  });
});
