import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './contract.ts';
import { openSqliteReadStore } from './sqlite.ts';
import { orderDoc, productDoc, userDoc } from './testing/documents.ts';
import type { OrderStatus } from '@eventide/kernel/events/catalogue.ts';

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
      const order = (id: string, status: OrderStatus, deleted = false) => ({
        collection: 'orders' as const,
        doc: orderDoc(id, 'u1', status, { seq: Number(id.slice(1)), deleted }),
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

describe('embedded SQLite read store: a rebuild promoted by another process', () => {
  it('serves the promoted generation to a store that had been reading the old one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const serving = openSqliteReadStore(path);
    const rebuilding = openSqliteReadStore(path);
    try {
      const doc = (id: string) => userDoc(id, {}, { seq: 1 });
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
      const product = (id: string, seq: number, name: string) => productDoc(id, name, name === 'Teapot' ? '' : 'Boils water', { seq });
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
    doc: productDoc(`p${seq}`, `Kettle ${seq}`, 'Copper', { seq }),
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
        .write(
          [{ ...product(31), doc: { ...product(31).doc, fields: { ...product(31).doc.fields, name: 'Jug', description: 'Brass' } } }],
          {
            name: 'read-models',
            position: 31,
          },
        );
      expect((await next.search('bras', 50)).length).toBe(1);
    } finally {
      await next.close();
      // Closing it now settles it as well.
      await killed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
