// The deadline schedule on PostgreSQL (DATABASE_URL): one table beside the read models, shared by
// every process on the database, so that whichever runs the deadlines finds what is due.
import type pg from 'pg';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import type { DeadlineSchedule, ScheduledDeadline } from './port.ts';

const STORE = 'deadline schedule';

/** The schedule's migration steps, in order; a new step is added at the end, never an old one changed. */
const SCHEDULE_STEPS: readonly string[] = [
  `CREATE TABLE deadlines (
     key      text   PRIMARY KEY,
     process  text   NOT NULL,
     subject  text   NOT NULL,
     next     text   NOT NULL,
     at       bigint NOT NULL,
     deadline bigint NOT NULL
   );
   CREATE INDEX deadlines_by_time ON deadlines (at, key);`,
];

type Row = Omit<ScheduledDeadline, 'at' | 'deadline'> & { at: string; deadline: string };
const COLUMNS = 'key, process, subject, next, at, deadline';
const toScheduled = (row: Row): ScheduledDeadline => ({ ...row, at: Number(row.at), deadline: Number(row.deadline) });

export async function openPostgresDeadlineSchedule(url: string): Promise<DeadlineSchedule> {
  const connections = openPool(url, 2);
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<R>(text, values));
  const rows = async (text: string, values: unknown[]) => (await query<Row>(text, values)).rows.map(toScheduled);
  await reaching(STORE, () => migrate(connections, 'deadlines', SCHEDULE_STEPS));

  return {
    async put(put, cleared) {
      if (put.length === 0 && cleared.length === 0) return;
      // The last of two for one key wins, as it would written one after the other.
      const byKey = [...new Map(put.map((r) => [r.key, r])).values()];
      // One statement: the removals and the upserts commit together.
      await query(
        `WITH removed AS (DELETE FROM deadlines WHERE key = ANY($7::text[]) AND NOT key = ANY($1::text[]))
         INSERT INTO deadlines (${COLUMNS})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
         ON CONFLICT (key) DO UPDATE SET next = excluded.next, at = excluded.at, deadline = excluded.deadline`,
        [
          byKey.map((r) => r.key),
          byKey.map((r) => r.process),
          byKey.map((r) => r.subject),
          byKey.map((r) => r.next),
          byKey.map((r) => r.at),
          byKey.map((r) => r.deadline),
          [...cleared],
        ],
      );
    },
    due: (now, limit) => rows(`SELECT ${COLUMNS} FROM deadlines WHERE at <= $1 ORDER BY at, key LIMIT $2`, [now, limit]),
    async earliest() {
      const found = await query<{ at: string }>('SELECT at FROM deadlines ORDER BY at LIMIT 1');
      return found.rows[0] ? Number(found.rows[0].at) : undefined;
    },
    list: ({ after, limit }) =>
      after
        ? rows(`SELECT ${COLUMNS} FROM deadlines WHERE (at, key) > ($1, $2) ORDER BY at, key LIMIT $3`, [after.at, after.key, limit])
        : rows(`SELECT ${COLUMNS} FROM deadlines ORDER BY at, key LIMIT $1`, [limit]),
    async count() {
      return Number((await query<{ n: string }>('SELECT count(*) AS n FROM deadlines')).rows[0]!.n);
    },
    close: () => connections.end(),
  };
}
