// Key store on the embedded default: its own SQLite file (keys.db in the data directory), never the
// event store's, so that a copy of the events holds no key. Fit for production on one node; every
// process on one data directory shares it.
//
// A destroyed key must leave no copy in the file: secure_delete overwrites what a delete frees,
// and a checkpoint right after a forget copies the overwritten page into the database file and
// truncates the write-ahead log, which still held the page as it was.
import { createHmac, randomBytes } from 'node:crypto';
import { openSqliteFile } from '../sqlite-file.ts';
import { KEY_BYTES, SubjectForgottenError, type KeyState, type KeyStore } from './port.ts';

const BLIND_INDEX_SECRET = 'blind-index';

interface KeyRow {
  subject: string;
  key: Uint8Array | null;
  forgotten_at: string | null;
}

export function openSqliteKeyStore(path: string, clock: () => Date = () => new Date()): KeyStore {
  const db = openSqliteFile(path, 'FULL');
  db.exec(`
    PRAGMA secure_delete = ON;
    CREATE TABLE IF NOT EXISTS subject_keys (
      subject      TEXT PRIMARY KEY,
      key          BLOB,
      forgotten_at TEXT,
      CHECK ((key IS NULL) <> (forgotten_at IS NULL))
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
  `);
  db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)').run(BLIND_INDEX_SECRET, randomBytes(KEY_BYTES));
  const blindSecret = Buffer.from(
    (db.prepare('SELECT value FROM secrets WHERE name = ?').get(BLIND_INDEX_SECRET) as { value: Uint8Array }).value,
  );
  const sql = {
    insert: db.prepare('INSERT OR IGNORE INTO subject_keys (subject, key) VALUES (?, ?)'),
    read: db.prepare('SELECT subject, key, forgotten_at FROM subject_keys WHERE subject = ?'),
    forget: db.prepare('INSERT OR REPLACE INTO subject_keys (subject, key, forgotten_at) VALUES (?, NULL, ?)'),
  };
  const stateOf = (row: KeyRow | undefined): KeyState => {
    if (!row) return { state: 'unknown' };
    if (row.forgotten_at !== null) return { state: 'forgotten', forgottenAt: row.forgotten_at };
    return { state: 'active', key: Buffer.from(row.key!) };
  };

  return {
    async keyFor(subject) {
      // One statement makes the key unless any row (a key, or the mark of a forgotten subject) is there.
      sql.insert.run(subject, randomBytes(KEY_BYTES));
      const state = stateOf(sql.read.get(subject) as KeyRow | undefined);
      if (state.state !== 'active') throw new SubjectForgottenError(subject);
      return state.key;
    },

    async lookup(subjects) {
      return new Map(subjects.map((subject) => [subject, stateOf(sql.read.get(subject) as KeyRow | undefined)]));
    },

    async forget(subject) {
      db.exec('BEGIN IMMEDIATE');
      let before: KeyState;
      try {
        before = stateOf(sql.read.get(subject) as KeyRow | undefined);
        if (before.state !== 'forgotten') sql.forget.run(subject, clock().toISOString());
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
      if (before.state === 'active') db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      return before.state === 'active' ? 'forgotten' : before.state === 'forgotten' ? 'already-forgotten' : 'unknown';
    },

    blindIndex(purpose, value) {
      return createHmac('sha256', blindSecret).update(purpose).update('\0').update(value).digest('hex');
    },

    async close() {
      if (db.isOpen) db.close();
    },
  };
}
