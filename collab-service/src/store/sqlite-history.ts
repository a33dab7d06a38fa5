// The history a document keeps, on the embedded SQLite file (history.ts): its ops and milestones.
import type { DatabaseSync } from 'node:sqlite';
import { firstKept, type HistoryStore } from './history.ts';

export function sqliteHistory(db: DatabaseSync): HistoryStore {
  const statements = {
    newestOps: db.prepare(
      'SELECT v, length(CAST(op AS BLOB)) AS bytes FROM sharedb_ops WHERE collection = ? AND id = ? AND v >= ? ORDER BY v DESC',
    ),
    op: db.prepare('SELECT op FROM sharedb_ops WHERE collection = ? AND id = ? AND v = ?'),
    opsBefore: db.prepare('DELETE FROM sharedb_ops WHERE collection = ? AND id = ? AND v < ?'),
    allOps: db.prepare('DELETE FROM sharedb_ops WHERE collection = ? AND id = ?'),
    allMilestones: db.prepare('DELETE FROM sharedb_milestones WHERE collection = ? AND id = ?'),
    milestonesBetween: db.prepare(`
      DELETE FROM sharedb_milestones WHERE collection = ? AND id = ? AND v <> ?
        AND v <> (SELECT MAX(v) FROM sharedb_milestones WHERE collection = ? AND id = ?)
        AND v NOT IN (SELECT value FROM json_each(?))`),
    milestones: db.prepare('SELECT v, mtime FROM sharedb_milestones WHERE collection = ? AND id = ? ORDER BY v DESC'),
    oldestOp: db.prepare('SELECT MIN(v) AS v FROM sharedb_ops WHERE collection = ? AND id = ?'),
  };
  const inTransaction = (work: () => void) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      work();
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    async keepFrom(collection, id, current, limits) {
      const rows = statements.newestOps.all(collection, id, Math.max(0, current - limits.ops)) as Array<{ v: number; bytes: number }>;
      return firstKept(current, rows, limits);
    },
    async reachedAt(collection, id, version) {
      const row = statements.op.get(collection, id, version - 1) as { op: string } | undefined;
      return row ? (JSON.parse(row.op) as { m?: { ts?: number } }).m?.ts : undefined;
    },
    async letGo(collection, id, from, keep) {
      inTransaction(() => {
        statements.opsBefore.run(collection, id, from);
        statements.milestonesBetween.run(collection, id, from, collection, id, JSON.stringify(keep));
      });
    },
    async milestones(collection, id) {
      const rows = statements.milestones.all(collection, id) as Array<{ v: number; mtime: number | null }>;
      return rows.map(({ v, mtime }) => (mtime === null ? { v } : { v, mtime }));
    },
    async oldestOp(collection, id) {
      return (statements.oldestOp.get(collection, id) as { v: number | null }).v ?? undefined;
    },
    async forget(collection, id) {
      inTransaction(() => {
        statements.allOps.run(collection, id);
        statements.allMilestones.run(collection, id);
      });
    },
  };
}
