// The deadline schedule on SQLite, in a table of the read models' file beside the followers'
// checkpoints, over a connection of its own. Fit for production on one node, like the read store;
// several processes on one node share the file.
import { inWriteTransaction, LIMIT_PLACEHOLDER, openSqliteFile, statementCache } from '../sqlite-file.ts';
import type { DeadlineSchedule, ScheduledDeadline } from './port.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS deadlines (
    key TEXT PRIMARY KEY, process TEXT NOT NULL, subject TEXT NOT NULL, next TEXT NOT NULL,
    at INTEGER NOT NULL, deadline INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS deadlines_by_time ON deadlines (at, key);`;

export function openSqliteDeadlineSchedule(path: string): DeadlineSchedule {
  const db = openSqliteFile(path, 'NORMAL');
  db.exec(SCHEMA);
  const prepare = statementCache(db);
  const rows = (sql: string, ...params: number[] | string[] | Array<string | number>) =>
    prepare(sql).all(...params) as unknown as ScheduledDeadline[];
  const COLUMNS = 'key, process, subject, next, at, deadline';

  return {
    async put(put, cleared) {
      if (put.length === 0 && cleared.length === 0) return;
      const upsert = prepare(`INSERT INTO deadlines (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET next = excluded.next, at = excluded.at, deadline = excluded.deadline`);
      const remove = prepare('DELETE FROM deadlines WHERE key = ?');
      inWriteTransaction(db, () => {
        for (const r of put) upsert.run(r.key, r.process, r.subject, r.next, r.at, r.deadline);
        for (const key of cleared) remove.run(key);
      });
    },
    async due(now, limit) {
      return rows(`SELECT ${COLUMNS} FROM deadlines WHERE at <= ? ORDER BY at, key LIMIT ${LIMIT_PLACEHOLDER}`, now, limit);
    },
    async earliest() {
      const [first] = rows('SELECT at FROM deadlines ORDER BY at LIMIT 1');
      return first?.at;
    },
    async list({ after, limit }) {
      return after
        ? rows(
            `SELECT ${COLUMNS} FROM deadlines WHERE (at, key) > (?, ?) ORDER BY at, key LIMIT ${LIMIT_PLACEHOLDER}`,
            after.at,
            after.key,
            limit,
          )
        : rows(`SELECT ${COLUMNS} FROM deadlines ORDER BY at, key LIMIT ${LIMIT_PLACEHOLDER}`, limit);
    },
    async count() {
      return (prepare('SELECT count(*) AS n FROM deadlines').get() as { n: number }).n;
    },
    async close() {
      db.close();
    },
  };
}
