import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './contract.ts';
import { openSqliteReadStore } from './sqlite.ts';
import { MAX_PREFIX_WORDS, SEARCH_CANDIDATES } from './search-terms.ts';

readStoreContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
  const store = openSqliteReadStore(join(dir, 'read.db'));
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('embedded SQLite read store: userByEmail', () => {
  it('looks a user up by the email index, in a store written before the index existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    try {
      const path = join(dir, 'read.db');
      // A store from before the index, serving a rebuilt generation: opening it indexes that generation.
      const old = new DatabaseSync(path);
      old.exec(`
        CREATE TABLE read_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO read_meta (key, value) VALUES ('active_generation', 2), ('last_generation', 2);
        CREATE TABLE users_g2 (id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE, deleted INTEGER NOT NULL, body TEXT NOT NULL)`);
      old.close();
      await openSqliteReadStore(path).close();
      const db = new DatabaseSync(path);
      const plan = db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT * FROM users_g2 WHERE lower(trim(json_extract(body, '$.email'))) = lower(trim(?)) AND deleted = 0",
        )
        .all('a@example.org') as { detail: string }[];
      db.close();
      expect(plan.map((row) => row.detail).join('; ')).toMatch(/USING INDEX users_g2_email/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded SQLite read store: totals', () => {
  it('counts the documents of a store written before totals were kept, once, when it is opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    try {
      const path = join(dir, 'read.db');
      const first = openSqliteReadStore(path);
      const writer = first.writer(await first.activeGeneration());
      const order = (id: string, status: string, deleted = false) => ({
        collection: 'orders' as const,
        doc: { id, version: 0, seq: Number(id.slice(1)), deleted, fields: { userId: 'u1', status } },
        expectedVersion: null,
      });
      await writer.write([order('o1', 'paid'), order('o2', 'paid'), order('o3', 'draft'), order('o4', 'paid', true)], {
        name: 'test',
        position: 1,
      });
      await first.close();
      // As an older version left it: no totals table.
      const old = new DatabaseSync(path);
      old.exec('DROP TABLE counts_g1');
      old.close();
      const reopened = openSqliteReadStore(path);
      try {
        const total = async (filter: Record<string, string>) => (await reopened.list('orders', { limit: 1, offset: 0, filter })).total;
        expect(await total({})).toBe(3);
        expect(await total({ status: 'paid' })).toBe(2);
        expect(await total({ userId: 'u1', status: 'draft' })).toBe(1);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded SQLite read store: search work per query', () => {
  it('ranks a bounded number of matches, and still finds an older product whose name matches', async () => {
    const store = openSqliteReadStore(':memory:');
    try {
      const writer = store.writer(await store.activeGeneration());
      const product = (seq: number, name: string, description: string) => ({
        collection: 'products' as const,
        doc: { id: `p${seq}`, version: 0, seq, deleted: false, fields: { productId: `p${seq}`, name, description } },
        expectedVersion: null,
      });
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
    const store = openSqliteReadStore(join(dir, 'read.db'));
    try {
      const g = await store.activeGeneration();
      const product = (seq: number, name: string, description: string) => ({
        collection: 'products' as const,
        doc: { id: `p${seq}`, version: 0, seq, deleted: false, fields: { productId: `p${seq}`, name, description } },
        expectedVersion: null,
      });
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
  const product = (seq: number, name: string, description: string) => ({
    collection: 'products' as const,
    doc: { id: `p${seq}`, version: 0, seq, deleted: false, fields: { productId: `p${seq}`, name, description } },
    expectedVersion: null,
  });
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
    const whole = openSqliteReadStore(':memory:');
    // Every query of two words or more over the budget: all but the rarest are looked for in the
    // text (a word alone, read in parts); and a budget that two of three words fit (an intersection, read row by row).
    const bounded = [1, 100].map((postings) => openSqliteReadStore(':memory:', { searchBounds: { postings, scanned: 1000 } }));
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
    const whole = openSqliteReadStore(':memory:');
    const bounded = openSqliteReadStore(':memory:', { searchBounds: { postings: 1, scanned: 1000 } });
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

  it('reads no more than the scan cap of the rows its rarest words match, and so leaves out a match older than those', async () => {
    const store = openSqliteReadStore(':memory:', { searchBounds: { postings: 1, scanned: 10 } });
    try {
      // The one copper kettle is older than the newest 10 products that hold `kettle`, the rarer word.
      const kettles = Array.from({ length: 10 }, (_, i) => product(i + 2, 'Steel kettle', 'Plain'));
      const copper = Array.from({ length: 30 }, (_, i) => product(i + 12, 'Copper pan', 'Plain'));
      await store.writer(await store.activeGeneration()).write([product(1, 'Copper kettle', 'Plain'), ...kettles, ...copper], {
        name: 'test',
        position: 1,
      });
      expect(await store.search('copper kettle', 10)).toEqual([]);
      // One more kettle in the newest 10 and it is found.
      await store.writer(await store.activeGeneration()).write([product(42, 'Copper kettle', 'Plain')], { name: 'test', position: 2 });
      expect((await store.search('copper kettle', 10)).map((h) => h.doc.id)).toEqual(['p42']);
    } finally {
      await store.close();
    }
  });
});

describe('embedded SQLite read store: a last word longer than the prefix index', () => {
  it(`stands for the ${MAX_PREFIX_WORDS} commonest words it starts, so its cost is bounded however many there are`, async () => {
    const store = openSqliteReadStore(':memory:');
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
            doc: {
              id: `${word}-${copy}`,
              version: 0,
              seq: seq++,
              deleted: false,
              fields: { productId: `${word}-${copy}`, name: 'Gadget', description: word },
            },
            expectedVersion: null,
          });
        }
      }
      await writer.write(writes, { name: 'test', position: 1 });
      const words = async (q: string) => new Set((await store.search(q, 1000)).map((h) => String(h.doc.fields.description)));
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

describe('embedded SQLite read store: a rebuild promoted by another process', () => {
  it('serves the promoted generation to a store that had been reading the old one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const serving = openSqliteReadStore(path);
    const rebuilding = openSqliteReadStore(path);
    try {
      const doc = (id: string) => ({ id, version: 0, seq: 1, deleted: false, fields: { id } });
      const live = await serving.activeGeneration();
      await serving
        .writer(live)
        .write([{ collection: 'users', doc: doc('old'), expectedVersion: null }], { name: 'read-models', position: 7 });
      expect(await serving.get('users', 'old')).toBeDefined();
      expect(await serving.servedCheckpoint('read-models')).toBe(7);

      const fresh = await rebuilding.createGeneration();
      await rebuilding
        .writer(fresh)
        .write([{ collection: 'users', doc: doc('new'), expectedVersion: null }], { name: 'read-models', position: 9 });
      expect(await rebuilding.promote(fresh)).toBe(true);

      expect(await serving.get('users', 'old')).toBeUndefined();
      expect(await serving.get('users', 'new')).toBeDefined();
      expect((await serving.list('users', { limit: 10, offset: 0 })).items.map((d) => d.id)).toEqual(['new']);
      expect(await serving.servedCheckpoint('read-models')).toBe(9);
      expect(await serving.activeGeneration()).toBe(fresh);
    } finally {
      await serving.close();
      await rebuilding.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded SQLite read store: the vocabulary of names', () => {
  it.each([
    ['the vocabulary', ['products_name_terms', 'products_name_variants']],
    ['the typo variants', ['products_name_variants']],
    ['the vocabulary of names and descriptions', ['products_terms']],
  ])('is filled from the full-text indexes when a store written before %s is opened', async (_, missing) => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    try {
      const first = openSqliteReadStore(path);
      const generation = await first.activeGeneration();
      const product = (id: string, seq: number, name: string) => ({
        id,
        version: 0,
        seq,
        deleted: false,
        fields: { productId: id, name, description: name === 'Teapot' ? '' : 'Boils water' },
      });
      await first.writer(generation).write(
        [product('k', 1, 'Electric kettle'), product('t', 2, 'Teapot')].map((doc) => ({
          collection: 'products' as const,
          doc,
          expectedVersion: null,
        })),
        { name: 'read-models', position: 2 },
      );
      await first.close();
      const old = new DatabaseSync(path);
      for (const name of missing) old.exec(`DROP TABLE ${name}_g${generation}`);
      old.close();

      const reopened = openSqliteReadStore(path);
      try {
        expect((await reopened.search('ketle', 10)).map((h) => h.doc.id)).toEqual(['k']);
        expect((await reopened.search('elec kettle', 10)).map((h) => h.doc.id)).toEqual(['k']);
        expect((await reopened.search('teapot wate', 10)).map((h) => h.doc.id)).toEqual([]);
        expect((await reopened.search('boils wate', 10)).map((h) => h.doc.id)).toEqual(['k']);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded SQLite read store: full-text merging during a bulk load', () => {
  const FTS = ['products_fts', 'products_names_fts'];
  /** Per full-text table: its merge settings, and its segments (FTS5 keeps a segment's pages at rowids whose bits from 37 up are its id). */
  function mergingOf(path: string, generation: number) {
    const db = new DatabaseSync(path);
    try {
      return FTS.map((name) => {
        const fts = `${name}_g${generation}`;
        const config = db.prepare(`SELECT k, v FROM ${fts}_config WHERE k IN ('automerge', 'crisismerge')`).all() as Array<{
          k: string;
          v: number;
        }>;
        const { segments } = db.prepare(`SELECT count(DISTINCT id >> 37) AS segments FROM ${fts}_data WHERE id >> 37 > 0`).get() as {
          segments: number;
        };
        return { ...Object.fromEntries(config.map(({ k, v }) => [k, v])), segments };
      });
    } finally {
      db.close();
    }
  }
  const product = (seq: number) => ({
    collection: 'products' as const,
    doc: { id: `p${seq}`, version: 0, seq, deleted: false, fields: { productId: `p${seq}`, name: `Kettle ${seq}`, description: 'Copper' } },
    expectedVersion: null,
  });
  /** One commit per product: FTS5 writes each commit's rows as a segment of its own. */
  async function writeOneByOne(store: ReturnType<typeof openSqliteReadStore>, generation: number, count: number) {
    const writer = store.writer(generation);
    for (let seq = 1; seq <= count; seq++) await writer.write([product(seq)], { name: 'read-models', position: seq });
  }
  const DEFAULTS = { automerge: 4, crisismerge: 16 };

  it("a rebuild's generation merges nothing until it is promoted, then serves one merged segment with FTS5's defaults", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const store = openSqliteReadStore(path);
    try {
      const fresh = await store.createGeneration();
      await writeOneByOne(store, fresh, 40);
      // With FTS5's defaults, 40 one-row commits would have been merged down to a handful.
      for (const fts of mergingOf(path, fresh)) expect(fts).toEqual({ automerge: 0, crisismerge: 256, segments: 40 });
      await store.promote(fresh);
      for (const fts of mergingOf(path, fresh)) expect(fts).toEqual({ ...DEFAULTS, segments: 1 });
      expect((await store.search('kettle', 50)).length).toBe(40);
      // The words of descriptions were counted once, at the promotion: a last word beyond the prefix index finds them.
      expect((await store.search('copp', 50)).length).toBe(40);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bulk-loading store defers merging until it closes; a store opened after one that never closed puts the defaults back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const bulk = openSqliteReadStore(path, { bulkLoad: true });
    const generation = await bulk.activeGeneration();
    await writeOneByOne(bulk, generation, 30);
    for (const fts of mergingOf(path, generation)) expect(fts).toEqual({ automerge: 0, crisismerge: 256, segments: 30 });
    await bulk.close();
    for (const fts of mergingOf(path, generation)) expect(fts).toEqual({ ...DEFAULTS, segments: 1 });
    const served = openSqliteReadStore(path);
    expect((await served.search('copp', 50)).length).toBe(30);
    await served.close();

    // A seed killed before it closed its store leaves the bulk settings on the served generation.
    const killed = openSqliteReadStore(path, { bulkLoad: true });
    const next = openSqliteReadStore(path);
    try {
      for (const fts of mergingOf(path, generation)) expect(fts).toMatchObject(DEFAULTS);
      expect((await next.search('kettle', 50)).length).toBe(30);
      expect((await next.search('copp', 50)).length).toBe(30);
      // The bulk load is over for the store that was left with it too: what it writes now is counted as it is written.
      await killed
        .writer(generation)
        .write([{ ...product(31), doc: { ...product(31).doc, fields: { name: 'Jug', description: 'Brass' } } }], {
          name: 'read-models',
          position: 31,
        });
      expect((await next.search('bras', 50)).length).toBe(1);
    } finally {
      await next.close();
      // Closing it now settles it as well.
      await killed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
