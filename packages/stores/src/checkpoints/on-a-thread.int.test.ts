import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { openSqliteFile } from '../sqlite-file.ts';
import { checkpointsOnAThread } from './on-a-thread.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new file in WAL mode with a table, and a way to commit about `pages` pages of rows to it. */
function newFile() {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-checkpoints-'));
  dirs.push(dir);
  const path = join(dir, 'file.db');
  const db = openSqliteFile(path, 'NORMAL');
  db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)');
  const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
  const commit = (pages: number) => {
    db.exec('BEGIN');
    for (let i = 0; i < pages; i++) insert.run('x'.repeat(3000));
    db.exec('COMMIT');
  };
  /** The database file's size: what checkpoints have moved into it from the log. */
  const size = () => statSync(path).size;
  return { path, db, commit, size };
}

describe('checkpoints on a thread of their own', () => {
  it('the committing connection never checkpoints; the thread moves what was committed into the file', async () => {
    const { path, db, commit, size } = newFile();
    const checkpoints = checkpointsOnAThread(db, path, 'NORMAL', { gatherMs: 1 });
    try {
      const before = size();
      // Past SQLite's own threshold of 1,000 pages: it would have checkpointed in these commits.
      for (let i = 0; i < 12; i++) commit(100);
      expect(size()).toBe(before);
      expect(checkpoints.running()).toBe(false);
      checkpoints.committed();
      await until(() => size() > before + 1_000 * 3000, 'the checkpointer to move 1,200 rows of 3,000 bytes into the file');
      expect(checkpoints.running()).toBe(true);
    } finally {
      await checkpoints.close();
      db.close();
    }
    expect(checkpoints.running()).toBe(false);
  });

  it('its thread ends once no commit came for a while, and the next commit starts another', async () => {
    const { path, db, commit, size } = newFile();
    const checkpoints = checkpointsOnAThread(db, path, 'NORMAL', { gatherMs: 1, idleMs: 100 });
    try {
      commit(10);
      checkpoints.committed();
      await until(() => checkpoints.running(), 'the checkpointer to start');
      await until(() => !checkpoints.running(), 'the checkpointer to end, idle');
      const before = size();
      commit(100);
      checkpoints.committed();
      await until(() => size() > before, 'a new checkpointer to move the next commit into the file');
    } finally {
      await checkpoints.close();
      db.close();
    }
  });

  it('a checkpointer that fails gives the checkpoints back to the committing connection', async () => {
    const { path, db } = newFile();
    // A file the thread cannot open (a directory): it fails as it starts.
    const checkpoints = checkpointsOnAThread(db, join(path, '..'), 'NORMAL', { gatherMs: 1 });
    const autocheckpoint = () => (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
    try {
      expect(autocheckpoint()).toBe(0);
      checkpoints.committed();
      await until(() => autocheckpoint() === 1000, 'the connection to checkpoint for itself again');
      expect(checkpoints.running()).toBe(false);
    } finally {
      await checkpoints.close();
      db.close();
    }
  });
});
