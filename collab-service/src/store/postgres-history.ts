// The history a document keeps, on PostgreSQL (history.ts): its ops and milestones, in the tables
// postgres-db.ts makes.
import { firstKept, type HistoryStore } from './history.ts';
import type { PostgresShareDb } from './postgres-db.ts';

export function postgresHistory(db: PostgresShareDb): HistoryStore {
  const { sql } = db;
  /** Runs statements in one transaction. */
  const inTransaction = async (statements: Array<[string, unknown[]]>) => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      for (const [text, values] of statements) await client.query(text, values);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    async keepFrom(collection, id, current, limits) {
      const rows = await sql<{ v: number; bytes: number }>(
        'SELECT v, octet_length(op::text) AS bytes FROM sharedb_ops WHERE collection = $1 AND id = $2 AND v >= $3 ORDER BY v DESC',
        [collection, id, Math.max(0, current - limits.ops)],
      );
      return firstKept(current, rows, limits);
    },
    async reachedAt(collection, id, version) {
      const [row] = await sql<{ ts: string | null }>(
        "SELECT op->'m'->>'ts' AS ts FROM sharedb_ops WHERE collection = $1 AND id = $2 AND v = $3",
        [collection, id, version - 1],
      );
      return row?.ts == null ? undefined : Number(row.ts);
    },
    async letGo(collection, id, from, keep) {
      await inTransaction([
        ['DELETE FROM sharedb_ops WHERE collection = $1 AND id = $2 AND v < $3', [collection, id, from]],
        [
          `DELETE FROM sharedb_milestones WHERE collection = $1 AND id = $2 AND v <> $3
             AND v <> (SELECT max(v) FROM sharedb_milestones WHERE collection = $1 AND id = $2)
             AND v <> ALL($4::integer[])`,
          [collection, id, from, [...keep]],
        ],
      ]);
    },
    async milestones(collection, id) {
      const rows = await sql<{ v: number; mtime: string | null }>(
        'SELECT v, mtime FROM sharedb_milestones WHERE collection = $1 AND id = $2 ORDER BY v DESC',
        [collection, id],
      );
      return rows.map(({ v, mtime }) => (mtime === null ? { v } : { v, mtime: Number(mtime) }));
    },
    async oldestOp(collection, id) {
      const [row] = await sql<{ v: number | null }>('SELECT min(v) AS v FROM sharedb_ops WHERE collection = $1 AND id = $2', [
        collection,
        id,
      ]);
      return row?.v ?? undefined;
    },
    async forget(collection, id) {
      await inTransaction([
        ['DELETE FROM sharedb_ops WHERE collection = $1 AND id = $2', [collection, id]],
        ['DELETE FROM sharedb_milestones WHERE collection = $1 AND id = $2', [collection, id]],
      ]);
    },
  };
}
