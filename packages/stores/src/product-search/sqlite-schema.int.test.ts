// Product search's tables in the SQLite read store's file: filled when a file from before them
// is opened, and merged late while a generation is filled in bulk.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { searchableSqlite } from '../read-models/testing.ts';
import { openSqliteReadStore } from '../read-store/sqlite.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';
import { until } from '@eventide/testing/wait.ts';

describe('product search on SQLite: the vocabulary of names', () => {
  it.each([
    ['the vocabulary', ['products_name_terms', 'products_name_variants']],
    ['the typo variants', ['products_name_variants']],
    ['the vocabulary of names and descriptions', ['products_terms']],
  ])('is filled from the full-text indexes when a store written before %s is opened', async (_, missing) => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    try {
      const first = searchableSqlite(path);
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

      const reopened = searchableSqlite(path);
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

describe('product search on SQLite: full-text merging', () => {
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
  async function writeOneByOne(store: ReturnType<typeof searchableSqlite>, generation: number, count: number) {
    const writer = store.writer(generation);
    for (let seq = 1; seq <= count; seq++) await writer.write([product(seq)], { name: 'read-models', position: seq });
  }
  /** A served generation's: nothing merged in a write (the store merges between writes), FTS5's own at sixteen segments a level. */
  const DEFAULTS = { automerge: 0, crisismerge: 16 };

  it('a served generation merges nothing in its writes, and merges between them, a bounded step at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const store = searchableSqlite(path);
    try {
      const generation = await store.activeGeneration();
      // One write after another with no turn of the event loop between them: no step can run. Fifteen:
      // at sixteen segments on a level FTS5 merges them itself, inside the write (crisismerge).
      await writeOneByOne(store, generation, 15);
      for (const fts of mergingOf(path, generation)) expect(fts).toEqual({ ...DEFAULTS, segments: 15 });
      // Between writes, the steps merge them, as FTS5 would have in the writes (it continues a merge
      // of a level into the next until fewer than four are left to merge anywhere).
      await until(
        () => mergingOf(path, generation).every(({ segments }) => segments < 4),
        () => `the steps to merge the 15 segments: ${JSON.stringify(mergingOf(path, generation))}`,
      );
      const db = new DatabaseSync(path);
      try {
        for (const name of FTS) db.exec(`INSERT INTO ${name}_g${generation} (${name}_g${generation}) VALUES ('integrity-check')`);
      } finally {
        db.close();
      }
      expect((await store.search('kettle', 50)).length).toBe(15);
      expect((await store.search('copp', 50)).length).toBe(15);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a rebuild's generation merges nothing until it is promoted, then serves one merged segment", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    const store = searchableSqlite(path);
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
    const bulk = searchableSqlite(path, { bulkLoad: true });
    const generation = await bulk.activeGeneration();
    await writeOneByOne(bulk, generation, 30);
    for (const fts of mergingOf(path, generation)) expect(fts).toEqual({ automerge: 0, crisismerge: 256, segments: 30 });
    await bulk.close();
    for (const fts of mergingOf(path, generation)) expect(fts).toEqual({ ...DEFAULTS, segments: 1 });
    const served = searchableSqlite(path);
    expect((await served.search('copp', 50)).length).toBe(30);
    await served.close();

    // A seed killed before it closed its store leaves the bulk settings on the served generation.
    const killed = searchableSqlite(path, { bulkLoad: true });
    const next = searchableSqlite(path);
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

describe('product search on SQLite: a file that keeps it', () => {
  it('refuses a store opened without it, which would write products the search never learns of', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    const path = join(dir, 'read.db');
    try {
      await searchableSqlite(path).close();
      expect(() => openSqliteReadStore(path)).toThrow(/keeps the index product-search/);
      const again = searchableSqlite(path);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
