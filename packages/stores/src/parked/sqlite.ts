// Parked events on SQLite, in a table of the read models' file beside the followers' checkpoints,
// over a connection of its own. Fit for production on one node, like the read store.
import { inWriteTransaction, LIMIT_PLACEHOLDER, openSqliteFile, statementCache } from '../sqlite-file.ts';
import type { ParkedCounts, ParkedEvents } from './port.ts';
import { type ParkedRow as Row, rowValues, toParked } from './rows.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS parked_events (
    lot TEXT NOT NULL, position INTEGER NOT NULL,
    event_id TEXT NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, type TEXT NOT NULL, time TEXT NOT NULL,
    reason TEXT NOT NULL, behind INTEGER, attempts INTEGER NOT NULL,
    parked_at TEXT NOT NULL, last_attempt_at TEXT NOT NULL, request TEXT,
    PRIMARY KEY (lot, position)) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS parked_events_by_stream ON parked_events (lot, stream_id, position);`;

export function openSqliteParkedEvents(path: string): ParkedEvents {
  const db = openSqliteFile(path, 'NORMAL');
  db.exec(SCHEMA);
  const prepare = statementCache(db);
  const rows = (sql: string, ...params: Array<string | number | null>) => prepare(sql).all(...params) as unknown as Row[];

  return {
    async park(events) {
      if (events.length === 0) return;
      const upsert = prepare(`
        INSERT INTO parked_events (lot, position, event_id, stream_id, revision, type, time, reason, behind, attempts, parked_at, last_attempt_at, request)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (lot, position) DO UPDATE SET reason = excluded.reason, behind = excluded.behind,
          attempts = excluded.attempts, last_attempt_at = excluded.last_attempt_at, request = excluded.request`);
      inWriteTransaction(db, () => {
        for (const e of events) upsert.run(...(rowValues(e) as Array<string | number | null>));
      });
    },
    async list({ lot, after, limit }) {
      const from = after ?? { position: -1, lot: '' };
      const found =
        lot === undefined
          ? rows(
              `SELECT * FROM parked_events WHERE (position, lot) > (?, ?) ORDER BY position, lot LIMIT ${LIMIT_PLACEHOLDER}`,
              from.position,
              from.lot,
              limit,
            )
          : rows(
              `SELECT * FROM parked_events WHERE lot = ? AND position > ? ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`,
              lot,
              from.position,
              limit,
            );
      return found.map(toParked);
    },
    async get(lot, position) {
      const [row] = rows('SELECT * FROM parked_events WHERE lot = ? AND position = ?', lot, position);
      return row && toParked(row);
    },
    async ofStream(lot, streamId) {
      return rows('SELECT * FROM parked_events WHERE lot = ? AND stream_id = ? ORDER BY position', lot, streamId).map(toParked);
    },
    async blockedStreams(lot) {
      const found = prepare('SELECT stream_id, MIN(position) AS first FROM parked_events WHERE lot = ? GROUP BY stream_id').all(lot) as {
        stream_id: string;
        first: number;
      }[];
      return new Map(found.map((row) => [row.stream_id, Number(row.first)]));
    },
    async request(lot, which, request) {
      const noted =
        which === 'all'
          ? prepare('UPDATE parked_events SET request = ? WHERE lot = ? AND behind IS NULL').run(JSON.stringify(request), lot)
          : prepare('UPDATE parked_events SET request = ? WHERE lot = ? AND behind IS NULL AND position = ?').run(
              JSON.stringify(request),
              lot,
              which,
            );
      return Number(noted.changes);
    },
    async requested(lot, limit) {
      return rows(
        `SELECT * FROM parked_events WHERE lot = ? AND request IS NOT NULL ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`,
        lot,
        limit,
      ).map(toParked);
    },
    async release(lot, positions) {
      const remove = prepare('DELETE FROM parked_events WHERE lot = ? AND position = ?');
      for (const position of positions) remove.run(lot, position);
    },
    async counts() {
      const found = prepare(`
        SELECT lot, SUM(behind IS NULL) AS parked, SUM(behind IS NOT NULL) AS held,
          MIN(CASE WHEN behind IS NULL THEN position END) AS oldest
        FROM parked_events GROUP BY lot`).all() as { lot: string; parked: number; held: number; oldest: number | null }[];
      const counts = new Map<string, ParkedCounts>();
      for (const row of found) {
        const [oldest] = row.oldest === null ? [] : rows('SELECT * FROM parked_events WHERE lot = ? AND position = ?', row.lot, row.oldest);
        counts.set(row.lot, { parked: Number(row.parked), held: Number(row.held), ...(oldest ? { oldest: toParked(oldest) } : {}) });
      }
      return counts;
    },
    async forget(lot) {
      prepare('DELETE FROM parked_events WHERE lot = ?').run(lot);
    },
    async close() {
      db.close();
    },
  };
}
