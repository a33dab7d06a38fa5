// Parked events on PostgreSQL (DATABASE_URL): one table beside the read models, shared by every
// process on the database, so an operator's request noted through one process reaches the
// follower running in another.
import type pg from 'pg';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import type { ParkedCounts, ParkedEvents } from './port.ts';
import { type ParkedRow as Row, rowValues, toParked } from './rows.ts';

const STORE = 'parked events';

/** The lot's migration steps, in order; a new step is added at the end, never an old one changed. */
const PARKED_STEPS: readonly string[] = [
  `CREATE TABLE parked_events (
     lot             text    NOT NULL,
     position        bigint  NOT NULL,
     event_id        text    NOT NULL,
     stream_id       text    NOT NULL,
     revision        bigint  NOT NULL,
     type            text    NOT NULL,
     time            text    NOT NULL,
     reason          text    NOT NULL,
     behind          bigint,
     attempts        integer NOT NULL,
     parked_at       text    NOT NULL,
     last_attempt_at text    NOT NULL,
     request         jsonb,
     PRIMARY KEY (lot, position)
   );
   CREATE INDEX parked_events_by_stream ON parked_events (lot, stream_id, position);
   CREATE INDEX parked_events_in_log_order ON parked_events (position, lot);`,
];

/** The table's columns and their types: a batch is sent as one array a column, one statement whatever its size. */
const COLUMNS = [
  ['lot', 'text'],
  ['position', 'bigint'],
  ['event_id', 'text'],
  ['stream_id', 'text'],
  ['revision', 'bigint'],
  ['type', 'text'],
  ['time', 'text'],
  ['reason', 'text'],
  ['behind', 'bigint'],
  ['attempts', 'integer'],
  ['parked_at', 'text'],
  ['last_attempt_at', 'text'],
  ['request', 'jsonb'],
] as const;

export async function openPostgresParkedEvents(url: string): Promise<ParkedEvents> {
  const connections = openPool(url, 2);
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<R>(text, values));
  const rows = async (text: string, values: unknown[]) => (await query<Row>(text, values)).rows.map(toParked);
  await reaching(STORE, () => migrate(connections, 'parked-events', PARKED_STEPS));

  const parked: ParkedEvents = {
    async park(events) {
      if (events.length === 0) return;
      // The last of two for one place wins, as it would written one after the other.
      const byPlace = new Map(events.map((e) => [`${e.lot}\u0000${e.position}`, e]));
      const batch = [...byPlace.values()].map(rowValues);
      await query(
        `INSERT INTO parked_events (${COLUMNS.map(([name]) => name).join(', ')})
         SELECT * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
         ON CONFLICT (lot, position) DO UPDATE SET reason = excluded.reason, behind = excluded.behind,
           attempts = excluded.attempts, last_attempt_at = excluded.last_attempt_at, request = excluded.request`,
        COLUMNS.map((_, i) => batch.map((values) => values[i])),
      );
    },
    async list({ lot, after, limit }) {
      const from = after ?? { position: -1, lot: '' };
      return lot === undefined
        ? rows('SELECT * FROM parked_events WHERE (position, lot) > ($1, $2) ORDER BY position, lot LIMIT $3', [
            from.position,
            from.lot,
            limit,
          ])
        : rows('SELECT * FROM parked_events WHERE lot = $1 AND position > $2 ORDER BY position LIMIT $3', [lot, from.position, limit]);
    },
    async get(lot, position) {
      const [found] = await rows('SELECT * FROM parked_events WHERE lot = $1 AND position = $2', [lot, position]);
      return found;
    },
    async ofStream(lot, streamId) {
      return rows('SELECT * FROM parked_events WHERE lot = $1 AND stream_id = $2 ORDER BY position', [lot, streamId]);
    },
    async blockedStreams(lot) {
      const found = await query<{ stream_id: string; first: string }>(
        'SELECT stream_id, min(position) AS first FROM parked_events WHERE lot = $1 GROUP BY stream_id',
        [lot],
      );
      return new Map(found.rows.map((row) => [row.stream_id, Number(row.first)]));
    },
    async request(lot, which, request) {
      const noted =
        which === 'all'
          ? await query('UPDATE parked_events SET request = $1 WHERE lot = $2 AND behind IS NULL', [JSON.stringify(request), lot])
          : await query('UPDATE parked_events SET request = $1 WHERE lot = $2 AND behind IS NULL AND position = $3', [
              JSON.stringify(request),
              lot,
              which,
            ]);
      return noted.rowCount ?? 0;
    },
    async requested(lot, limit) {
      return rows('SELECT * FROM parked_events WHERE lot = $1 AND request IS NOT NULL ORDER BY position LIMIT $2', [lot, limit]);
    },
    async release(lot, positions) {
      if (positions.length === 0) return;
      await query('DELETE FROM parked_events WHERE lot = $1 AND position = ANY($2::bigint[])', [lot, [...positions]]);
    },
    async counts() {
      const found = await query<{ lot: string; parked: string; held: string; oldest: string | null }>(`
        SELECT lot, count(*) FILTER (WHERE behind IS NULL) AS parked, count(*) FILTER (WHERE behind IS NOT NULL) AS held,
          min(position) FILTER (WHERE behind IS NULL) AS oldest
        FROM parked_events GROUP BY lot`);
      const counts = new Map<string, ParkedCounts>();
      for (const row of found.rows) {
        const oldest = row.oldest === null ? undefined : await parked.get(row.lot, Number(row.oldest));
        counts.set(row.lot, { parked: Number(row.parked), held: Number(row.held), ...(oldest ? { oldest } : {}) });
      }
      return counts;
    },
    async forget(lot) {
      await query('DELETE FROM parked_events WHERE lot = $1', [lot]);
    },
    close: () => connections.end(),
  };
  return parked;
}
