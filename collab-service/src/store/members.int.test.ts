// Each store's index of who is on which document: kept with each access record's change (SQLite,
// PostgreSQL), and on SQLite built once from the records when a store from before it is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type ShareDB from 'sharedb';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { ACCESS_COLLECTION, type MemberIndex } from './members.ts';
import { PostgresShareDb } from './postgres-db.ts';
import { SqliteShareDb } from './sqlite-db.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function storePath() {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-members-'));
  dirs.push(dir);
  return join(dir, 'collab.db');
}

function commit(db: ShareDB.DB, id: string, v: number, data: unknown) {
  return new Promise<boolean>((resolve, reject) =>
    db.commit(ACCESS_COLLECTION, id, { v }, { id, v: v + 1, type: data ? 'json0' : null, data, m: null }, {}, (error, ok) =>
      error ? reject(error) : resolve(ok!),
    ),
  );
}

/** What the index answers, as each store follows the access records it commits. */
async function followsAccessRecords(db: ShareDB.DB & MemberIndex): Promise<void> {
  await commit(db, 'doc-a', 0, { owner: 'ann', editors: [] });
  await commit(db, 'doc-a', 1, { owner: 'ann', editors: ['bob'] });
  await commit(db, 'doc-b', 0, { owner: 'bob', editors: ['ann'] });
  expect(await db.documentsOf('ann', 10)).toEqual([
    { id: 'doc-a', role: 'owner' },
    { id: 'doc-b', role: 'editor' },
  ]);
  await commit(db, 'doc-a', 2, { owner: 'ann', editors: [] });
  expect(await db.documentsOf('bob', 10)).toEqual([{ id: 'doc-b', role: 'owner' }]);
  await commit(db, 'doc-b', 1, null);
  expect(await db.documentsOf('bob', 10)).toEqual([]);
  expect(await db.documentsOf('ann', 1)).toEqual([{ id: 'doc-a', role: 'owner' }]);
}

const noPostgres = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());
if (noPostgres) console.warn(`SKIPPED: the members index on PostgreSQL: ${noPostgres}`);

describe('the members index on PostgreSQL', () => {
  it.skipIf(noPostgres)('follows each change of an access record, and forgets a deleted one', async () => {
    server ??= startPostgres();
    const db = await PostgresShareDb.open(await (await server).database());
    try {
      await followsAccessRecords(db);
    } finally {
      await new Promise((resolve) => db.close(resolve));
    }
  });
});

describe('the members index on SQLite', () => {
  it('follows each change of an access record, and forgets a deleted one', async () => {
    const db = new SqliteShareDb(storePath(), 'NORMAL');
    await followsAccessRecords(db);
    db.close();
  });

  it('indexes the records of a store written before the index existed, once', async () => {
    const path = storePath();
    const before = new SqliteShareDb(path, 'NORMAL');
    await commit(before, 'old-doc', 0, { owner: 'ann', editors: ['bob'] });
    before.db.exec('DROP TABLE collab_members');
    before.close();
    const after = new SqliteShareDb(path, 'NORMAL');
    expect(await after.documentsOf('bob', 10)).toEqual([{ id: 'old-doc', role: 'editor' }]);
    after.close();
  });
});
