// The schema of each store on PostgreSQL, as numbered steps applied at open: a database made by an
// older release is brought up to this one's, whichever process opens it first, and a database
// that a newer release has moved on is refused rather than written in a shape this one does not
// know. Each store (a component) has its own steps, kept in its adapter's module.
import type pg from 'pg';

/** One lock for every migration of every component: processes that open together wait in turn. */
const MIGRATION_LOCK = 'eventide:migrations';

export class SchemaTooNewError extends Error {
  constructor(component: string, applied: number, known: number) {
    super(
      `the database's ${component} schema is at step ${applied}, and this release knows ${known}: a newer release has used it; run that release, or restore a copy made before it`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Applies the steps of `component` the database does not have yet, each in the same transaction as its record. */
export async function migrate(pool: pg.Pool, component: string, steps: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS eventide_migrations (
        component  text        NOT NULL,
        step       integer     NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (component, step)
      )`);
    const { rows } = await client.query<{ applied: number | null }>(
      'SELECT max(step) AS applied FROM eventide_migrations WHERE component = $1',
      [component],
    );
    const applied = rows[0]?.applied ?? 0;
    if (applied > steps.length) throw new SchemaTooNewError(component, applied, steps.length);
    for (let step = applied + 1; step <= steps.length; step++) {
      await client.query(steps[step - 1]!);
      await client.query('INSERT INTO eventide_migrations (component, step) VALUES ($1, $2)', [component, step]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
