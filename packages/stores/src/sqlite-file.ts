// One way to open the embedded stores' SQLite files: WAL, so readers never wait for the writer,
// and a busy timeout, so several processes on one data directory (npm start beside npm run
// admin, or the services started alone) take turns instead of failing. Temporary tables and
// indexes stay in memory: on disk, a savepoint's statement journal went to a temporary file on
// every append (measured: 28% more events/s for `npm run seed`).
//
// The files hold personal data, sessions and the keys that unseal the rest: they are the owner's
// alone (0600, in a 0700 directory when it is made here). SQLite gives its WAL and shared-memory
// files the database file's mode, so the database file is made 0600 before SQLite opens it; one
// made readable by others before this rule is narrowed when opened.
//
// Nothing here ever opens a database file outside SQLite. POSIX advisory locks belong to the
// process, and closing any descriptor of the file drops all of them, also those of connections
// that have it open (another thread's, or this one's): SQLite then thinks it still holds its
// shared lock, another process (the sqlite3 CLI, npm run admin) finds itself the last connection
// on closing and deletes the WAL with the commits in it ("How To Corrupt An SQLite Database
// File", 2.2). A new file is made under a name nobody else knows, closed, and only then linked
// into place; an existing one is narrowed by chmod, which opens nothing.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

const BUSY_TIMEOUT_MS = 5000;
/** Read and written by the owner alone. */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIRECTORY = 0o700;

/**
 * Makes the file (and its directory) the owner's alone, or narrows an existing one to that,
 * without ever holding a descriptor of `path` itself (see the top of this file).
 */
export function ownerOnlyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  const unseen = `${path}.${randomBytes(6).toString('hex')}.new`;
  closeSync(openSync(unseen, 'wx', OWNER_ONLY_FILE));
  try {
    // Atomic, and never replaces a file that is there: whoever made it first, it is the one opened.
    linkSync(unseen, path);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    chmodSync(path, OWNER_ONLY_FILE);
  } finally {
    unlinkSync(unseen);
  }
}

/** Narrows a file SQLite made to the owner's alone. Another process closing the last connection deletes it meanwhile: then there is nothing to narrow. */
function narrowIfThere(path: string): void {
  try {
    chmodSync(path, OWNER_ONLY_FILE);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
}

export function openSqliteFile(path: string, synchronous: 'FULL' | 'NORMAL'): DatabaseSync {
  if (path !== ':memory:') {
    ownerOnlyFile(path);
    for (const companion of [`${path}-wal`, `${path}-shm`]) narrowIfThere(companion);
  }
  // The busy timeout is set as the file opens: the first statement (the switch to WAL) already
  // meets the others' locks when several processes open a new file at once.
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  toWal(db);
  db.exec(`
    PRAGMA synchronous = ${synchronous};
    PRAGMA temp_store = MEMORY;`);
  return db;
}

const SQLITE_BUSY = 5;
/** Something to wait on that nobody wakes: Atomics.wait is a synchronous sleep. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switches the file to WAL. Two processes switching a new file at once can each hold the lock
 * the other waits for; SQLite then answers one of them "database is locked" at once rather than
 * calling the busy handler (which would wait for ever). That one tries again after a short,
 * jittered pause, within the busy timeout: by then the other has switched it, or given way.
 */
function toWal(db: DatabaseSync): void {
  const until = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== SQLITE_BUSY || Date.now() >= until) throw error;
      // A synchronous pause: opening a file is synchronous, and happens once per process.
      Atomics.wait(PAUSE, 0, 0, 5 + Math.random() * 20);
    }
  }
}

/**
 * The placeholder of a LIMIT that a statement binds: `LIMIT ${LIMIT_PLACEHOLDER}`. SQLite (3.53, in
 * Node 24) plans with the value bound to a bare `LIMIT ?`, so binding it marks the statement stale
 * and every execution prepares it again: a page of 20 products took 27 µs against 20 with the limit
 * written in, the parse a quarter of the query (perf, 2026-12-01). `+?` is not a bare parameter, so
 * SQLite plans without its value, as our statements are planned anyway: by their indexes (the
 * same plans for every list of the read store, EXPLAIN QUERY PLAN of both, 50,000 events).
 */
export const LIMIT_PLACEHOLDER = '+?';

/**
 * Each statement prepared once per connection, on first use: a store's `prepare`. `clear()` lets
 * them go, for a store whose tables another generation replaced (the read store). With `arrays`,
 * the statements give each row as an array of its columns, in the SELECT's order.
 */
export function statementCache(db: DatabaseSync, { arrays = false } = {}): ((sql: string) => StatementSync) & { clear(): void } {
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (arrays) statement.setReturnArrays(true);
      statements.set(sql, statement);
    }
    return statement;
  };
  return Object.assign(prepare, { clear: () => statements.clear() });
}

/** Runs `body` in one write transaction (BEGIN IMMEDIATE: the write lock taken at once), rolled back if it throws. */
export function inWriteTransaction<T>(db: DatabaseSync, body: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = body();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
