// The SQLite store's index of who is on which document: kept with each access record's change,
// and built once from the records when a store from before it is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_COLLECTION } from './members.ts';
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

function commit(db: SqliteShareDb, id: string, v: number, data: unknown) {
  return new Promise<boolean>((resolve, reject) =>
    db.commit(ACCESS_COLLECTION, id, { v }, { id, v: v + 1, type: data ? 'json0' : null, data, m: null }, {}, (error, ok) =>
      error ? reject(error) : resolve(ok!),
    ),
  );
}

describe('the members index on SQLite', () => {
  it('follows each change of an access record, and forgets a deleted one', async () => {
    const db = new SqliteShareDb(storePath(), 'NORMAL');
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
