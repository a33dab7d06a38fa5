import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './contract.ts';
import { openSqliteReadStore } from './sqlite.ts';
import { orderDoc, userDoc } from '@eventide/testing/read-documents.ts';
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';

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
