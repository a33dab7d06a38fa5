// Sessions on PostgreSQL (DATABASE_URL): one table every process on the database shares. Expired
// rows are swept a bounded batch at a time, every so many writes, as the embedded store does.
import type pg from 'pg';
import { reaching } from '../postgres/errors.ts';
import type { SessionStore, StoredRecord } from './port.ts';

interface Row {
  user_id: string | null;
  data: Record<string, unknown>;
}

const STORE = 'session store';
const SWEEP_EVERY = 256;

/** `pool`: the auth tables' (postgres/auth-schema.ts), already migrated; closing the store does not end it. */
export function postgresSessionStore(pool: pg.Pool, clock: () => number = Date.now): SessionStore {
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => reaching(STORE, () => pool.query<R>(text, values));
  const toRecord = (row: Row | undefined): StoredRecord | undefined =>
    row ? { ...(row.user_id ? { userId: row.user_id } : {}), data: row.data } : undefined;
  let writes = 0;
  return {
    async get(key) {
      return toRecord((await query<Row>('SELECT user_id, data FROM sessions WHERE key = $1 AND expires_at > $2', [key, clock()])).rows[0]);
    },
    async set(key, record, ttlMs) {
      await query(
        `INSERT INTO sessions (key, user_id, data, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET user_id = excluded.user_id, data = excluded.data, expires_at = excluded.expires_at`,
        [key, record.userId ?? null, JSON.stringify(record.data), clock() + ttlMs],
      );
      if (++writes % SWEEP_EVERY === 0)
        await query('DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE expires_at <= $1 LIMIT 1000)', [clock()]);
    },
    async destroy(key) {
      await query('DELETE FROM sessions WHERE key = $1', [key]);
    },
    async take(key) {
      return toRecord(
        (await query<Row>('DELETE FROM sessions WHERE key = $1 AND expires_at > $2 RETURNING user_id, data', [key, clock()])).rows[0],
      );
    },
    async destroyUser(userId) {
      return (await query('DELETE FROM sessions WHERE user_id = $1', [userId])).rowCount ?? 0;
    },
    async close() {},
  };
}
