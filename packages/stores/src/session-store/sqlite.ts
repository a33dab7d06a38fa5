// Embedded session store on SQLite (node:sqlite). Fit for production on one node: processes
// that share the data directory (npm start, or start:command beside start:query) share it.
import type { SessionStore, StoredRecord } from './port.ts';
import { openSqliteFile } from '../sqlite-file.ts';

interface Row {
  user_id: string | null;
  data: string;
}

/** Expired rows are swept by every this many writes, a bounded batch at a time. */
const SWEEP_EVERY = 256;

export function openSqliteSessionStore(path: string, clock: () => number = Date.now): SessionStore {
  const db = openSqliteFile(path, 'NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS sessions (
      key TEXT PRIMARY KEY, user_id TEXT, data TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
    CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);`);
  const select = db.prepare('SELECT user_id, data FROM sessions WHERE key = ? AND expires_at > ?');
  const upsert = db.prepare(
    `INSERT INTO sessions (key, user_id, data, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET user_id = excluded.user_id, data = excluded.data, expires_at = excluded.expires_at`,
  );
  const remove = db.prepare('DELETE FROM sessions WHERE key = ?');
  const takeRow = db.prepare('DELETE FROM sessions WHERE key = ? AND expires_at > ? RETURNING user_id, data');
  const removeUser = db.prepare('DELETE FROM sessions WHERE user_id = ?');
  const sweep = db.prepare('DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE expires_at <= ? LIMIT 1000)');
  let writes = 0;

  const toRecord = (row: Row | undefined): StoredRecord | undefined =>
    row ? { ...(row.user_id ? { userId: row.user_id } : {}), data: JSON.parse(row.data) } : undefined;

  return {
    async get(key) {
      return toRecord(select.get(key, clock()) as Row | undefined);
    },
    async set(key, record, ttlMs) {
      upsert.run(key, record.userId ?? null, JSON.stringify(record.data), clock() + ttlMs);
      if (++writes % SWEEP_EVERY === 0) sweep.run(clock());
    },
    async destroy(key) {
      remove.run(key);
    },
    async take(key) {
      return toRecord(takeRow.get(key, clock()) as Row | undefined);
    },
    async destroyUser(userId) {
      return Number(removeUser.run(userId).changes);
    },
    async close() {
      db.close();
    },
  };
}
