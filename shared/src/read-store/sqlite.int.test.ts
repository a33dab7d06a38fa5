import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoreContract } from './contract.ts';
import { openSqliteReadStore } from './sqlite.ts';

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
