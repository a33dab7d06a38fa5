// Rewriting the embedded event store's file in place, for one-shot migrations an operator runs
// (`npm run admin -- seal-existing`, docs/privacy.md). An event store is append-only for every
// other purpose: this module is the one exception, and it never changes an event's id, stream
// position or type, only the data of events or the name of a private stream. Whatever it
// replaces is zeroed in the file (secure_delete) and the write-ahead log is emptied after.
// Safe beside a running server: each batch is one short write transaction, as an append is.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LIMIT_PLACEHOLDER, openSqliteFile } from '../sqlite-file.ts';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';

export interface StoredEvent {
  position: number;
  streamId: string;
  type: string;
  data: JsonValue;
}

export interface SqliteMaintenance {
  /** The events of these types, in log order, a page at a time. */
  eventsOfTypes(types: readonly string[], page?: number): Iterable<StoredEvent[]>;
  /** Each stream whose name starts with `prefix`, with the data of its last event. */
  lastEventOfEachStream(prefix: string): Array<{ streamId: string; data: JsonValue }>;
  /** Whether the stream holds an event of this type. */
  streamHas(streamId: string, type: string): boolean;
  streamExists(streamId: string): boolean;
  /** The id of the first event in the log; undefined when it is empty. */
  firstEventId(): string | undefined;
  /** Runs the changes in one write transaction. */
  transaction(changes: () => void): void;
  replaceData(position: number, data: JsonValue): void;
  renameStream(from: string, to: string): void;
  /** Drops the snapshots of streams whose name starts with one of the prefixes and whose state `keep` refuses. */
  dropSnapshots(prefixes: readonly string[], keep: (state: JsonValue) => boolean): number;
  /** Moves the write-ahead log into the file and empties it, so no old page is left there. */
  checkpoint(): void;
  close(): void;
}

export function openSqliteMaintenance(path: string): SqliteMaintenance {
  const db: DatabaseSync = openSqliteFile(path, 'FULL');
  db.exec('PRAGMA secure_delete = ON');
  const prepared = new Map<string, StatementSync>();
  const sql = (text: string) => {
    const known = prepared.get(text);
    if (known) return known;
    const statement = db.prepare(text);
    prepared.set(text, statement);
    return statement;
  };
  return {
    *eventsOfTypes(types, page = 1000) {
      const marks = types.map(() => '?').join(', ');
      const query = sql(
        `SELECT position, stream_id, type, data FROM events WHERE position > ? AND type IN (${marks}) ORDER BY position LIMIT ${LIMIT_PLACEHOLDER}`,
      );
      for (let after = 0; ; ) {
        const rows = query.all(after, ...types, page) as Array<{ position: number; stream_id: string; type: string; data: string }>;
        if (rows.length === 0) return;
        after = rows[rows.length - 1]!.position;
        yield rows.map((r) => ({ position: r.position, streamId: r.stream_id, type: r.type, data: JSON.parse(r.data) as JsonValue }));
      }
    },
    lastEventOfEachStream(prefix) {
      // A range on the (stream_id, revision) index, not a scan: names from `prefix` up to the next prefix.
      const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
      const rows = sql(
        `SELECT stream_id, data FROM events AS e WHERE stream_id >= ? AND stream_id < ?
           AND revision = (SELECT MAX(revision) FROM events WHERE stream_id = e.stream_id)`,
      ).all(prefix, end) as Array<{ stream_id: string; data: string }>;
      return rows.map((r) => ({ streamId: r.stream_id, data: JSON.parse(r.data) as JsonValue }));
    },
    streamHas: (streamId, type) => sql('SELECT 1 FROM events WHERE stream_id = ? AND type = ? LIMIT 1').get(streamId, type) !== undefined,
    streamExists: (streamId) => sql('SELECT 1 FROM events WHERE stream_id = ? LIMIT 1').get(streamId) !== undefined,
    firstEventId: () => (sql('SELECT event_id FROM events ORDER BY position LIMIT 1').get() as { event_id: string } | undefined)?.event_id,
    transaction(changes) {
      db.exec('BEGIN IMMEDIATE');
      try {
        changes();
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    replaceData: (position, data) => void sql('UPDATE events SET data = ? WHERE position = ?').run(JSON.stringify(data), position),
    renameStream(from, to) {
      sql('UPDATE events SET stream_id = ? WHERE stream_id = ?').run(to, from);
      sql('UPDATE snapshots SET stream_id = ? WHERE stream_id = ?').run(to, from);
    },
    dropSnapshots(prefixes, keep) {
      let dropped = 0;
      const rows = sql('SELECT stream_id, revision, state FROM snapshots').all() as Array<{
        stream_id: string;
        revision: number;
        state: string;
      }>;
      for (const row of rows) {
        if (!prefixes.some((p) => row.stream_id.startsWith(p)) || keep(JSON.parse(row.state) as JsonValue)) continue;
        sql('DELETE FROM snapshots WHERE stream_id = ? AND revision = ?').run(row.stream_id, row.revision);
        dropped++;
      }
      return dropped;
    },
    checkpoint: () => void db.exec('PRAGMA wal_checkpoint(TRUNCATE)'),
    close: () => db.close(),
  };
}
