// Moves the embedded stores of a data directory into an empty PostgreSQL database (docs/engines.md
// #moving-between-engines): the events with their positions (so every checkpoint, cursor and
// Wait-For-Position a client holds still means the same event), the snapshots, the keys that seal
// personal data with the blind-index secret (so sealed fields open and email lookups find the same
// people), the collaborative documents with their history, milestones and members, and where the
// publisher, the forgetter, the deadlines and the webhooks had got (so the bus is not sent the whole
// log again), the deadline schedule, and the webhook endpoints with their deliveries. Then it reads
// both sides again and compares them, table by table, by count and digest.
//
// The read models are not copied: the projector rebuilds them on PostgreSQL from the events when
// it starts there, as after `npm run rebuild`. Sessions and rate-limit counters are not copied
// either: people sign in again.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import pg from 'pg';
import { openPostgresEventStore } from '@eventide/stores/event-store/postgres.ts';
import { openPostgresKeyStore } from '@eventide/stores/key-store/postgres.ts';
import { openPostgresReadModels } from '@eventide/stores/read-models/open.ts';
import { openPostgresParkedEvents } from '@eventide/stores/parked/postgres.ts';
import {
  DEADLINES_CHECKPOINT,
  FORGETTER_CHECKPOINT,
  PUBLISHER_CHECKPOINT,
  WEBHOOKS_CHECKPOINT,
} from '@eventide/stores/read-store/follower-checkpoints.ts';
import { openPostgresDeadlineSchedule } from '@eventide/stores/deadlines/postgres.ts';
import { openPostgresWebhookStore } from '@eventide/stores/webhooks/postgres.ts';
import { PostgresShareDb } from '@eventide/collab-service/src/store/postgres-db.ts';

/** Rows sent in one statement. */
const BATCH = 2000;

/** What the move reports as it goes, and what it found at the end. */
export interface MoveProgress {
  table: string;
  copied: number;
  of: number;
}

export interface TableCheck {
  table: string;
  rows: number;
  /** SHA-256 of the rows in a fixed order, as both sides read them. */
  digest: string;
  same: boolean;
}

export class MoveRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoveRefusedError';
  }
}

/**
 * A table copied from SQLite into PostgreSQL: what to read on each side (the same columns as
 * text, in the same order, ordered the same way), and how to write a batch of the rows read.
 */
interface Copied {
  table: string;
  file: 'events.db' | 'keys.db' | 'collab.db' | 'read.db';
  /** SELECT on SQLite: the row as the digest reads it, in order. */
  read: string;
  /**
   * SELECT on PostgreSQL: the same columns, as text, in the same order (ORDER BY names the
   * table's column where a text alias of it would sort as text), bytes compared as SQLite does.
   */
  readBack: string;
  /** The INSERT of one batch, its parameters the columns as arrays (in `read`'s order). */
  insert: string;
  /** Turns a row of `read` into the values `insert` takes and the digest reads. */
  values?: (row: Record<string, SQLInputValue>) => unknown[];
  /** A table (of this name) that a data directory whose process never opened its store does not have. */
  optional?: boolean;
}

/** JSON with its keys sorted: jsonb keeps keys in its own order, so documents' metadata is compared by content. */
function canonical(text: string | null): string | null {
  if (text === null) return null;
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
          )
        : value;
  return JSON.stringify(sorted(JSON.parse(text)));
}

const hex = (value: SQLInputValue) => (value === null ? null : Buffer.from(value as Uint8Array).toString('hex'));

const COPIED: readonly Copied[] = [
  {
    table: 'events',
    file: 'events.db',
    read: 'SELECT position, event_id, stream_id, revision, type, data, metadata, time FROM events ORDER BY events.position',
    readBack:
      'SELECT position::text, event_id, stream_id, revision::text, type, data::text, metadata::text, time FROM events ORDER BY events.position',
    // Positions as they were: the identity is moved past them afterwards.
    insert: `INSERT INTO events (position, event_id, stream_id, revision, type, data, metadata, time) OVERRIDING SYSTEM VALUE
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::json[], $7::json[], $8::text[])`,
  },
  {
    table: 'snapshots',
    file: 'events.db',
    read: 'SELECT stream_id, revision, version, position, time, state FROM snapshots ORDER BY stream_id, revision',
    readBack:
      'SELECT stream_id, revision::text, version, position::text, time, state::text FROM snapshots ORDER BY stream_id COLLATE "C", snapshots.revision',
    insert: `INSERT INTO snapshots (stream_id, revision, version, position, time, state)
      SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::json[])`,
  },
  {
    table: 'subject_keys',
    file: 'keys.db',
    read: 'SELECT subject, key, forgotten_at FROM subject_keys ORDER BY subject',
    readBack: `SELECT subject, encode(key, 'hex') AS key, forgotten_at FROM subject_keys ORDER BY subject COLLATE "C"`,
    insert: `INSERT INTO subject_keys (subject, key, forgotten_at)
      SELECT s, decode(k, 'hex'), f FROM unnest($1::text[], $2::text[], $3::text[]) AS u(s, k, f)`,
    values: (row) => [row.subject, hex(row.key!), row.forgotten_at],
  },
  {
    table: 'key_store_secrets',
    file: 'keys.db',
    read: 'SELECT name, value FROM secrets ORDER BY name',
    readBack: `SELECT name, encode(value, 'hex') AS value FROM key_store_secrets ORDER BY name COLLATE "C"`,
    // The store made its own blind-index secret when it was first opened: the one moved replaces it.
    insert: `INSERT INTO key_store_secrets (name, value) SELECT n, decode(v, 'hex') FROM unnest($1::text[], $2::text[]) AS u(n, v)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    values: (row) => [row.name, hex(row.value!)],
  },
  {
    table: 'sharedb_snapshots',
    file: 'collab.db',
    read: 'SELECT collection, id, v, type, data, m FROM sharedb_snapshots ORDER BY collection, id',
    readBack:
      'SELECT collection, id, v::text, type, data::text, m::text FROM sharedb_snapshots ORDER BY collection COLLATE "C", id COLLATE "C"',
    insert: `INSERT INTO sharedb_snapshots (collection, id, v, type, data, m)
      SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::json[], $6::jsonb[])`,
    values: (row) => [row.collection, row.id, row.v, row.type, row.data, canonical(row.m as string | null)],
  },
  {
    table: 'sharedb_ops',
    file: 'collab.db',
    read: 'SELECT collection, id, v, op FROM sharedb_ops ORDER BY collection, id, v',
    readBack: 'SELECT collection, id, v::text, op::text FROM sharedb_ops ORDER BY collection COLLATE "C", id COLLATE "C", sharedb_ops.v',
    insert: `INSERT INTO sharedb_ops (collection, id, v, op) SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::json[])`,
  },
  {
    table: 'sharedb_milestones',
    file: 'collab.db',
    read: 'SELECT collection, id, v, mtime, snapshot FROM sharedb_milestones ORDER BY collection, id, v',
    readBack:
      'SELECT collection, id, v::text, mtime::text, snapshot::text FROM sharedb_milestones ORDER BY collection COLLATE "C", id COLLATE "C", sharedb_milestones.v',
    insert: `INSERT INTO sharedb_milestones (collection, id, v, mtime, snapshot)
      SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::bigint[], $5::json[])`,
  },
  {
    table: 'collab_members',
    file: 'collab.db',
    read: 'SELECT user_id, id, role FROM collab_members ORDER BY user_id, id',
    readBack: 'SELECT user_id, id, role FROM collab_members ORDER BY user_id COLLATE "C", id COLLATE "C"',
    insert: 'INSERT INTO collab_members (user_id, id, role) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])',
  },
  {
    table: 'follower_checkpoints',
    file: 'read.db',
    // The read models' own checkpoint stays behind with them: they are rebuilt.
    read: `SELECT name, position FROM follower_checkpoints WHERE name IN (${[PUBLISHER_CHECKPOINT, FORGETTER_CHECKPOINT, DEADLINES_CHECKPOINT, WEBHOOKS_CHECKPOINT].map((n) => `'${n}'`).join(', ')}) OR name LIKE '${PUBLISHER_CHECKPOINT}:%' ORDER BY name`,
    readBack: 'SELECT name, position::text FROM follower_checkpoints ORDER BY name COLLATE "C"',
    insert: 'INSERT INTO follower_checkpoints (name, position) SELECT * FROM unnest($1::text[], $2::bigint[])',
  },
  {
    table: 'deadlines',
    optional: true,
    file: 'read.db',
    read: 'SELECT key, process, subject, next, at, deadline FROM deadlines ORDER BY key',
    readBack: 'SELECT key, process, subject, next, at::text, deadline::text FROM deadlines ORDER BY key COLLATE "C"',
    insert: `INSERT INTO deadlines (key, process, subject, next, at, deadline)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])`,
  },
  {
    table: 'webhook_endpoints',
    optional: true,
    file: 'read.db',
    read: 'SELECT id, body, enabled, created_at FROM webhook_endpoints ORDER BY id',
    readBack: 'SELECT id, body, (CASE WHEN enabled THEN 1 ELSE 0 END)::text, created_at FROM webhook_endpoints ORDER BY id COLLATE "C"',
    insert: `INSERT INTO webhook_endpoints (id, body, enabled, created_at)
      SELECT id, body, enabled = 1, created_at FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[]) AS t (id, body, enabled, created_at)`,
  },
  {
    table: 'webhook_deliveries',
    optional: true,
    file: 'read.db',
    // A claim does not survive the move: whoever sends next claims afresh.
    read: `SELECT id, endpoint_id, event_id, event_type, entity, position, payload, status, attempts, next_attempt_at, first_attempt_at,
      last_attempt_at, last_status, last_error, delivered_at, created_at FROM webhook_deliveries ORDER BY id`,
    readBack: `SELECT id, endpoint_id, event_id, event_type, entity, position::text, payload, status, attempts::text, next_attempt_at::text,
      first_attempt_at::text, last_attempt_at, last_status::text, last_error, delivered_at, created_at FROM webhook_deliveries ORDER BY id COLLATE "C"`,
    insert: `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, entity, position, payload, status, attempts, next_attempt_at,
        first_attempt_at, last_attempt_at, last_status, last_error, delivered_at, created_at)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::integer[],
        $10::bigint[], $11::bigint[], $12::text[], $13::integer[], $14::text[], $15::text[], $16::text[])`,
  },
];

/** Whether the file has the table: a store this data directory never opened made none. */
const holds = (db: DatabaseSync, table: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;

/** Tables the target must not hold a row in: a database in use is not overwritten. */
const MUST_BE_EMPTY = ['events', 'snapshots', 'subject_keys', 'sharedb_snapshots', 'sharedb_ops', 'follower_checkpoints'];

/** A row's values as the digest reads them: text, or null. */
const asText = (values: unknown[]) => values.map((v) => (v === null || v === undefined ? null : String(v)));

function digestOf(rows: Iterable<unknown[]>): { rows: number; digest: string } {
  const hash = createHash('sha256');
  let count = 0;
  for (const row of rows) {
    hash.update(JSON.stringify(asText(row)));
    hash.update('\n');
    count++;
  }
  return { rows: count, digest: hash.digest('hex') };
}

/**
 * Copies the data directory's embedded stores into the empty database at `url`, then compares
 * every table copied. Refuses (MoveRefusedError) a directory with no event store, a database that
 * holds data, and a source that took writes while it was copied.
 */
export async function moveToPostgres(options: {
  dataDir: string;
  url: string;
  onProgress?: (progress: MoveProgress) => void;
}): Promise<TableCheck[]> {
  const { dataDir, url } = options;
  const files = new Map<string, DatabaseSync>();
  const source = (file: Copied['file']) => {
    let db = files.get(file);
    if (!db && existsSync(join(dataDir, file))) {
      db = new DatabaseSync(join(dataDir, file), { readOnly: true });
      // One snapshot of each file from the first read to the last.
      db.exec('BEGIN');
      files.set(file, db);
    }
    return db;
  };
  if (!source('events.db')) throw new MoveRefusedError(`${dataDir} holds no event store (events.db): nothing to move`);

  // Each store makes its schema in the database as it does when a process opens it.
  await (await openPostgresEventStore({ url })).close();
  await (await openPostgresKeyStore(url)).close();
  await (await openPostgresReadModels(url)).store.close();
  await (await openPostgresParkedEvents(url)).close();
  await (await openPostgresDeadlineSchedule(url)).close();
  await (await openPostgresWebhookStore(url)).close();
  await new Promise((resolve) => PostgresShareDb.open(url).then((db) => db.close(resolve)));

  const target = new pg.Client({ connectionString: url });
  await target.connect();
  try {
    for (const table of MUST_BE_EMPTY) {
      const { rows } = await target.query(`SELECT 1 FROM ${table} LIMIT 1`);
      if (rows.length > 0) throw new MoveRefusedError(`the database already holds ${table}: move only into an empty database`);
    }
    const headBefore = Number(
      (source('events.db')!.prepare('SELECT coalesce(max(position), 0) AS head FROM events').get() as { head: number }).head,
    );

    await target.query('BEGIN');
    for (const copied of COPIED) {
      const db = source(copied.file);
      if (!db || (copied.optional && !holds(db, copied.table))) continue;
      const of = Number((db.prepare(`SELECT count(*) AS n FROM (${copied.read})`).get() as { n: number }).n);
      let batch: unknown[][] = [];
      let copiedRows = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const columns = batch[0]!.map((_, i) => batch.map((row) => row[i]));
        await target.query(copied.insert, columns);
        copiedRows += batch.length;
        batch = [];
        options.onProgress?.({ table: copied.table, copied: copiedRows, of });
      };
      for (const row of db.prepare(copied.read).iterate() as IterableIterator<Record<string, SQLInputValue>>) {
        batch.push(copied.values ? copied.values(row) : Object.values(row));
        if (batch.length === BATCH) await flush();
      }
      await flush();
    }
    // New appends go on after the last position moved.
    await target.query(
      "SELECT setval(pg_get_serial_sequence('events', 'position'), (SELECT coalesce(max(position), 0) + 1 FROM events), false)",
    );
    await target.query('COMMIT');

    // Reopened: the snapshot a file's connection held would not show what came since.
    for (const db of files.values()) db.close();
    files.clear();
    const headAfter = Number(
      (source('events.db')!.prepare('SELECT coalesce(max(position), 0) AS head FROM events').get() as { head: number }).head,
    );
    if (headAfter !== headBefore) {
      throw new MoveRefusedError(
        `the embedded event store took ${headAfter - headBefore} events while it was copied: stop every process on ${dataDir}, empty the database and move again`,
      );
    }
    return await verify(source, target);
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    for (const db of files.values()) db.close();
    await target.end();
  }
}

/** Every table copied, read again on both sides and compared by count and digest. */
async function verify(source: (file: Copied['file']) => DatabaseSync | undefined, target: pg.Client): Promise<TableCheck[]> {
  const checks: TableCheck[] = [];
  for (const copied of COPIED) {
    const db = source(copied.file);
    const readable = db && !(copied.optional && !holds(db, copied.table));
    const rows = readable ? (db.prepare(copied.read).iterate() as IterableIterator<Record<string, SQLInputValue>>) : [];
    const here = digestOf(
      (function* () {
        for (const row of rows) yield copied.values ? copied.values(row) : Object.values(row);
      })(),
    );
    const { rows: there } = await target.query({ text: copied.readBack, rowMode: 'array' });
    const back =
      copied.table === 'sharedb_snapshots'
        ? there.map((row: unknown[]) => [...row.slice(0, 5), canonical(row[5] as string | null)])
        : there;
    const moved = digestOf(back);
    checks.push({
      table: copied.table,
      rows: here.rows,
      digest: here.digest,
      same: moved.rows === here.rows && moved.digest === here.digest,
    });
  }
  return checks;
}
