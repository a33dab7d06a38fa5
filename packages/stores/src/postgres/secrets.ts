// The secrets every process of a deployment shares (signing session cookies, list cursors), kept
// in the database when DATABASE_URL is set and the environment does not give them: processes on
// several hosts then share them with no file between them. Whoever can read the database can
// read them, as they can its sessions: set SESSION_SECRET and CURSOR_SECRET to keep them out of it.
import { randomBytes } from 'node:crypto';
import { reaching } from './errors.ts';
import { migrate } from './migrations.ts';
import { openPool } from './pool.ts';

const SECRETS_STEPS: readonly string[] = ['CREATE TABLE eventide_secrets (name text PRIMARY KEY, value text NOT NULL);'];

/** The secrets named, each made once by whichever process asks first (the others read it). */
export async function sharedSecrets<Name extends string>(url: string, names: readonly Name[]): Promise<Record<Name, string>> {
  const pool = openPool(url, 1);
  try {
    return await reaching('secrets', async () => {
      await migrate(pool, 'secrets', SECRETS_STEPS);
      await pool.query(
        'INSERT INTO eventide_secrets (name, value) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (name) DO NOTHING',
        [names, names.map(() => randomBytes(32).toString('base64url'))],
      );
      const { rows } = await pool.query<{ name: Name; value: string }>(
        'SELECT name, value FROM eventide_secrets WHERE name = ANY($1::text[])',
        [names],
      );
      return Object.fromEntries(rows.map((row) => [row.name, row.value])) as Record<Name, string>;
    });
  } finally {
    await pool.end();
  }
}
