// The SQLite read store's list keys (list-keys.ts): added to a store an older version wrote, and
// every order paged by an index, never sorted whole (a sort of every product on each page would
// cost more as the catalogue grows).
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadStore } from './sqlite.ts';
import { sortsOf } from './list-keys.ts';
import { listSql } from './list-sql.ts';
import { column } from './sqlite-schema.ts';
import type { ListQuery } from './port.ts';

function inTemporaryDirectory(body: (path: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-rs-'));
    try {
      await body(join(dir, 'read.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const PRODUCT = (name: string, amount: number) =>
  JSON.stringify({ status: 'active', productId: name, name, price: { amount, currency: 'EUR' }, category: null });

describe('embedded SQLite read store: list keys', () => {
  it(
    'orders the products of a store written before the keys were kept',
    inTemporaryDirectory(async (path) => {
      const old = new DatabaseSync(path);
      old.exec(`
        CREATE TABLE read_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO read_meta (key, value) VALUES ('active_generation', 1), ('last_generation', 1);
        CREATE TABLE products_g1 (id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,
          deleted INTEGER NOT NULL, body TEXT NOT NULL,
          f_category TEXT GENERATED ALWAYS AS (json_extract(body, '$.category')) VIRTUAL)`);
      const insert = old.prepare('INSERT INTO products_g1 (id, version, seq, deleted, body) VALUES (?, 0, ?, 0, ?)');
      insert.run('p1', 1, PRODUCT('Pear', 300));
      insert.run('p2', 2, PRODUCT('apple', 100));
      insert.run('p3', 3, PRODUCT('Quince', 200));
      old.close();
      const store = openSqliteReadStore(path);
      try {
        const ids = async (by: string) =>
          (await store.list('products', { order: { by, descending: false }, limit: 10, after: null })).items.map((d) => d.id);
        expect(await ids('price')).toEqual(['p2', 'p3', 'p1']);
        expect(await ids('name')).toEqual(['p2', 'p1', 'p3']);
      } finally {
        await store.close();
      }
    }),
  );

  it(
    'pages every order, alone, within a category or within a price range, by an index without sorting',
    inTemporaryDirectory(async (path) => {
      await openSqliteReadStore(path).close();
      const db = new DatabaseSync(path);
      try {
        const planOf = (query: ListQuery) => {
          const params: Array<string | number> = [];
          const place = (value: string | number) => {
            params.push(value);
            return '?';
          };
          const { conditions, orderBy } = listSql('products', query, place, column);
          const where = ['deleted = 0', ...conditions].join(' AND ');
          const sql = `EXPLAIN QUERY PLAN SELECT id FROM products_g1 WHERE ${where} ORDER BY ${orderBy} LIMIT 20`;
          return (db.prepare(sql).all(...params) as Array<{ detail: string }>).map((row) => row.detail).join('; ');
        };
        for (const by of Object.keys(sortsOf('products'))) {
          for (const descending of [false, true]) {
            const order = { by, descending };
            const after = { keys: by === 'price' ? ['EUR', 500] : ['kettle'], seq: 1000 };
            for (const query of [
              { order, limit: 20, after },
              { order, limit: 20, after, filter: { category: 'Kitchen' } },
            ] satisfies ListQuery[]) {
              const plan = planOf(query);
              expect(plan, JSON.stringify(query)).toMatch(/USING (COVERING )?INDEX/);
              expect(plan, JSON.stringify(query)).not.toMatch(/TEMP B-TREE/);
            }
          }
        }
        // A price range is a range of the price order's index: by price, its pages are that range's.
        const range = { currency: { equals: 'EUR' }, amount: { min: 100, max: 900 } };
        const byPrice = planOf({ order: { by: 'price', descending: false }, limit: 20, after: null, keys: range });
        expect(byPrice).toMatch(/USING INDEX products_g1_by_price \(deleted=\? AND k_currency=\? AND k_amount>\? AND k_amount<\?\)$/);
        // A page further down the range starts at its position, not at the range's start (which would read every row before it).
        for (const descending of [false, true]) {
          const deeper = planOf({ order: { by: 'price', descending }, limit: 20, after: { keys: ['EUR', 500], seq: 7 }, keys: range });
          // Between the position and the range's far end, both in the index's search.
          expect(deeper).toMatch(
            /^SEARCH products_g1 USING INDEX products_g1_by_price \(deleted=\? AND k_currency=\? AND [^)]*\(k_amount,seq\)[<>]\(\?,\?\)/,
          );
          expect(deeper).toMatch(/k_amount[<>]\?/);
        }
        // In another order, only the products in the range are read and sorted (docs/api.md#listing-products says what that costs).
        for (const order of [undefined, { by: 'name', descending: false }]) {
          const plan = planOf({ ...(order ? { order } : {}), limit: 20, after: null, keys: range });
          expect(plan).toMatch(/USING INDEX products_g1_by_price \(deleted=\? AND k_currency=\? AND k_amount>\? AND k_amount<\?\)/);
        }
      } finally {
        db.close();
      }
    }),
  );
});
