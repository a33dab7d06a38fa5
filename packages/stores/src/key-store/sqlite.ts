// Key store on the embedded default: its own SQLite file (keys.db in the data directory), never the
// event store's, so that a copy of the events holds no key. Fit for production on one node; every
// process on one data directory shares it.
//
// A destroyed key must leave no copy in the file: secure_delete overwrites what a delete frees,
// and a checkpoint right after a forget copies the overwritten page into the database file and
// truncates the write-ahead log, which still held the page as it was.
import { randomBytes } from 'node:crypto';
import { blindIndexUnder } from './blind-index.ts';
import { pooledRandomBytes } from '@eventide/kernel/random-pool.ts';
import { openSqliteFile } from '../sqlite-file.ts';
import { KEY_BYTES, SubjectForgottenError, type KeyState, type KeyStore } from './port.ts';

const BLIND_INDEX_SECRET = 'blind-index';

interface KeyRow {
  subject: string;
  key: Uint8Array | null;
  forgotten_at: string | null;
}

/** The key store's settings and tables; the benchmarks' raw floor writes into the same. */
export const KEY_STORE_SCHEMA = `
    PRAGMA secure_delete = ON;
    CREATE TABLE IF NOT EXISTS subject_keys (
      subject      TEXT PRIMARY KEY,
      key          BLOB,
      forgotten_at TEXT,
      CHECK ((key IS NULL) <> (forgotten_at IS NULL))
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
`;

export function openSqliteKeyStore(path: string, clock: () => Date = () => new Date()): KeyStore {
  const db = openSqliteFile(path, 'FULL');
  db.exec(KEY_STORE_SCHEMA);
  db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)').run(BLIND_INDEX_SECRET, randomBytes(KEY_BYTES));
  const blindIndex = blindIndexUnder(
    Buffer.from((db.prepare('SELECT value FROM secrets WHERE name = ?').get(BLIND_INDEX_SECRET) as { value: Uint8Array }).value),
  );
  // Notes share the secrets' table, each under a name of its own, so a move carries them along.
  const noteName = (name: string) => `note:${name}`;
  const sql = {
    readNote: db.prepare('SELECT value FROM secrets WHERE name = ?'),
    setNote: db.prepare('INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)'),
    // Answers the key it made, nothing when a row was there: one statement less than reading it back.
    insert: db.prepare('INSERT INTO subject_keys (subject, key) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING key'),
    read: db.prepare('SELECT subject, key, forgotten_at FROM subject_keys WHERE subject = ?'),
    forget: db.prepare('INSERT OR REPLACE INTO subject_keys (subject, key, forgotten_at) VALUES (?, NULL, ?)'),
  };
  const stateOf = (row: KeyRow | undefined): KeyState => {
    if (!row) return { state: 'unknown' };
    if (row.forgotten_at !== null) return { state: 'forgotten', forgottenAt: row.forgotten_at };
    return { state: 'active', key: Buffer.from(row.key!) };
  };

  const read = (subject: string) => stateOf(sql.read.get(subject) as KeyRow | undefined);
  const keyOf = (subject: string, state: KeyState) => {
    if (state.state !== 'active') throw new SubjectForgottenError(subject);
    return state.key;
  };

  // Keys asked for in one turn of the event loop are made in one transaction: each commit is an
  // fsync, and a sign-up makes a key, so one commit a sign-up halved their rate under load.
  let waiting: Array<{ subject: string; resolve: (key: Buffer) => void; reject: (error: unknown) => void }> = [];
  function makeWaitingKeys(): void {
    if (waiting.length === 0) return; // made already, by close()
    const batch = waiting;
    waiting = [];
    let made: Array<{ key: Uint8Array } | undefined>;
    try {
      db.exec('BEGIN IMMEDIATE');
      // Makes the key unless any row (a key, or the mark of a forgotten subject) is there.
      made = batch.map(({ subject }) => sql.insert.get(subject, pooledRandomBytes(KEY_BYTES)) as { key: Uint8Array } | undefined);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const [i, { subject, resolve, reject }] of batch.entries()) {
      const key = made[i]?.key;
      try {
        resolve(key ? Buffer.from(key) : keyOf(subject, read(subject)));
      } catch (error) {
        reject(error);
      }
    }
  }

  return {
    async keyFor(subject, { likelyNew = false } = {}) {
      // A subject likely new goes straight to the insert, which answers nothing where a row is
      // there and then reads it (makeWaitingKeys): a sign-up's read of keys.db, one of the
      // statements of its own it makes, spared.
      if (!likelyNew) {
        const state = read(subject);
        if (state.state !== 'unknown') return keyOf(subject, state);
      }
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) setImmediate(makeWaitingKeys);
        waiting.push({ subject, resolve, reject });
      });
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

    blindIndex,

    async note(name) {
      const row = sql.readNote.get(noteName(name)) as { value: Uint8Array } | undefined;
      return row ? Buffer.from(row.value).toString('utf8') : undefined;
    },

    async setNote(name, value) {
      sql.setNote.run(noteName(name), Buffer.from(value, 'utf8'));
    },

    async close() {
      if (!db.isOpen) return;
      if (waiting.length > 0) makeWaitingKeys();
      db.close();
    },
  };
}
