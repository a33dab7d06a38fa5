// The key store on PostgreSQL (DATABASE_URL): a table of one row per subject, and one holding the
// blind-index secret, in the same database as the event store but never in its tables, so that a
// copy of the events alone holds no key. Every process on the database shares it.
//
// Forgetting overwrites the key in its row. What PostgreSQL keeps of the old version (the dead
// row until vacuum reuses its space, the write-ahead log and its archive, base backups) is beyond
// an application's reach: docs/privacy.md says what an operator must do about it, as for MongoDB.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { pooledRandomBytes } from '@eventide/kernel/random-pool.ts';
import { blindIndexUnder } from './blind-index.ts';
import { KEY_BYTES, SubjectForgottenError, type KeyState, type KeyStore } from './port.ts';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';

const STORE = 'key store';
const BLIND_INDEX_SECRET = 'blind-index';
/** Notes share the secrets' table, each under a name of its own, so a move carries them along. */
const noteName = (name: string) => `note:${name}`;

/** The key store's migration steps, in order; a new step is added at the end, never an old one changed. */
const KEY_STORE_STEPS: readonly string[] = [
  `CREATE TABLE subject_keys (
     subject      text PRIMARY KEY,
     key          bytea,
     forgotten_at text,
     CHECK ((key IS NULL) <> (forgotten_at IS NULL))
   );
   CREATE TABLE key_store_secrets (name text PRIMARY KEY, value bytea NOT NULL);`,
];

interface KeyRow {
  subject: string;
  key: Buffer | null;
  forgotten_at: string | null;
}

const stateOf = (row: KeyRow | undefined): KeyState => {
  if (!row) return { state: 'unknown' };
  if (row.forgotten_at !== null) return { state: 'forgotten', forgottenAt: row.forgotten_at };
  return { state: 'active', key: row.key! };
};

export async function openPostgresKeyStore(url: string, clock: () => Date = () => new Date()): Promise<KeyStore> {
  const connections = openPool(url, 4);
  const query = <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    reaching(STORE, () => connections.query<Row>(text, values));
  await reaching(STORE, () => migrate(connections, 'key-store', KEY_STORE_STEPS));
  await query('INSERT INTO key_store_secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    BLIND_INDEX_SECRET,
    randomBytes(KEY_BYTES),
  ]);
  const { rows: secret } = await query<{ value: Buffer }>('SELECT value FROM key_store_secrets WHERE name = $1', [BLIND_INDEX_SECRET]);
  const blindIndex = blindIndexUnder(secret[0]!.value);

  const read = async (subject: string) =>
    stateOf((await query<KeyRow>('SELECT subject, key, forgotten_at FROM subject_keys WHERE subject = $1', [subject])).rows[0]);

  return {
    async keyFor(subject) {
      // Makes the key unless a row (a key, or the mark of a forgotten subject) is there: of racing
      // first uses, one inserts and the others read what it made.
      const { rows } = await query<{ key: Buffer }>(
        'INSERT INTO subject_keys (subject, key) VALUES ($1, $2) ON CONFLICT (subject) DO NOTHING RETURNING key',
        [subject, pooledRandomBytes(KEY_BYTES)],
      );
      const state = rows[0] ? ({ state: 'active', key: rows[0].key } as const) : await read(subject);
      if (state.state !== 'active') throw new SubjectForgottenError(subject);
      return state.key;
    },

    async lookup(subjects) {
      const { rows } = await query<KeyRow>('SELECT subject, key, forgotten_at FROM subject_keys WHERE subject = ANY($1::text[])', [
        [...subjects],
      ]);
      const found = new Map(rows.map((row) => [row.subject, row]));
      return new Map(subjects.map((subject) => [subject, stateOf(found.get(subject))]));
    },

    async forget(subject) {
      // One statement: what was there before (read from the statement's snapshot), and the key
      // destroyed, or the subject marked forgotten so that no key is made for it later. A first
      // forget's time stays.
      const { rows } = await query<{ existed: boolean; forgotten_at: string | null }>(
        `WITH before AS (SELECT forgotten_at FROM subject_keys WHERE subject = $1),
         forgetting AS (
           INSERT INTO subject_keys (subject, key, forgotten_at) VALUES ($1, NULL, $2)
           ON CONFLICT (subject) DO UPDATE SET key = NULL, forgotten_at = excluded.forgotten_at
           WHERE subject_keys.forgotten_at IS NULL
         )
         SELECT EXISTS (SELECT 1 FROM before) AS existed, (SELECT forgotten_at FROM before) AS forgotten_at`,
        [subject, clock().toISOString()],
      );
      const before = rows[0]!;
      return !before.existed ? 'unknown' : before.forgotten_at === null ? 'forgotten' : 'already-forgotten';
    },

    blindIndex,

    async note(name) {
      const { rows } = await query<{ value: Buffer }>('SELECT value FROM key_store_secrets WHERE name = $1', [noteName(name)]);
      return rows[0]?.value.toString('utf8');
    },

    async setNote(name, value) {
      await query('INSERT INTO key_store_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [
        noteName(name),
        Buffer.from(value, 'utf8'),
      ]);
    },

    close: () => connections.end(),
  };
}
