// The read store on PostgreSQL (DATABASE_URL): every process on the database reads the same read
// models, and any of them may project or rebuild. A batch of writes is one transaction: the
// documents it replaces read in one statement per collection, the writes that apply decided here
// (a stale replay skips, as the port says), then each collection's documents, the live counts,
// what the indexes that follow them keep (product search) and the checkpoint written with one
// statement each, however many writes the batch holds.
//
// Generations: a write takes a shared lock on the generations and a promotion an exclusive one, so
// a promotion compares checkpoints with no write under way, and drops the generation it replaces
// in the same transaction; a projector still writing to it then fails, looks, and follows the new
// one (projector.ts), as on SQLite.
import {
  COLLECTIONS,
  type Collection,
  type DocumentWrite,
  FILTERABLE,
  type ListQuery,
  type ReadDocument,
  type ReadModelWriter,
  READ_MODELS_CHECKPOINT,
  type ReadStore,
} from './port.ts';
import { countChanges, countKeyOf, countKeysOf, type CountKey } from './live-counts.ts';
import type { PostgresReadModelIndex, Query, Replaced } from './postgres-indexes.ts';
import {
  COLUMN_FIELDS,
  column,
  EMAIL_KEY,
  generationSchema,
  generationTables,
  READ_STORE_STEPS,
  ROW,
  type Row,
  table,
  toDocument,
} from './postgres-schema.ts';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';

const STORE = 'read models';
/** Writes share it, promotions and the making of a generation's tables take it alone. */
const GENERATIONS_LOCK = "hashtext('eventide:read-models:generations')";
/** One writer of a generation at a time: a batch decides what applies from what it read. */
const WRITE_LOCK = "hashtext('eventide:read-models:write')";
/** PostgreSQL's SQLSTATE for a table that is not there: a generation a promotion dropped. */
const UNDEFINED_TABLE = '42P01';

/** The PostgreSQL read store, and a way for its indexes' readers (product search) to read the generation it serves. */
export interface PostgresReadStore extends ReadStore {
  /** Runs a read on the generation served; once more if a promotion dropped its tables meanwhile. */
  readActive<T>(read: (query: Query, generation: number) => Promise<T>): Promise<T>;
}

export interface PostgresReadStoreOptions {
  /** What it keeps beside the documents, in their transactions (product-search/postgres-index.ts). */
  indexes?: readonly PostgresReadModelIndex[];
  /** Connections it may hold (default 10). */
  poolSize?: number;
}

/** A document as the store last saw it in a batch: what the next write of it in the batch replaces. */
interface Stored {
  version: number;
  deleted: boolean;
  /** The filterable fields' values, for the counts. */
  filters: Record<string, string | null>;
  /** What the indexes read of it (their `before` expressions). */
  before: Record<string, unknown>;
}

/** A field of a document as a column of its row keeps it: text, or null. */
function fieldValue(doc: ReadDocument, field: string): string | null {
  const value = Reflect.get(doc.fields, field);
  return value === undefined || value === null ? null : String(value);
}

export async function openPostgresReadStore(url: string, options: PostgresReadStoreOptions = {}): Promise<PostgresReadStore> {
  const indexes = options.indexes ?? [];
  const pool = openPool(url, options.poolSize);
  const query: Query = async (text, values) => (await reaching(STORE, () => pool.query(text, values))).rows;

  /** Runs `body` in a transaction on one connection. */
  async function transaction<T>(body: (query: Query) => Promise<T>): Promise<T> {
    return reaching(STORE, async () => {
      const client = await pool.connect();
      const on: Query = async (text, values) => (await client.query(text, values)).rows;
      try {
        await client.query('BEGIN');
        const result = await body(on);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    });
  }

  const meta = async (key: string, on: Query = query) =>
    Number((await on<{ value: number }>('SELECT value FROM read_meta WHERE key = $1', [key]))[0]!.value);

  await reaching(STORE, () => migrate(pool, 'read-store', READ_STORE_STEPS));
  await transaction(async (on) => {
    await on(`SELECT pg_advisory_xact_lock(${GENERATIONS_LOCK})`);
    await keepsItsIndexes(on, indexes);
    await on(generationSchema(await meta('active_generation', on), indexes));
  });

  /**
   * The generation reads are served from, remembered: a promotion in this process updates it; one
   * in another drops the old generation's tables, and the first read that misses them looks again.
   */
  let served: number | undefined;
  const active = async () => (served ??= await meta('active_generation'));

  async function onActive<T>(read: (generation: number) => Promise<T>): Promise<T> {
    try {
      return await read(await active());
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
      served = undefined;
      return read(await active());
    }
  }

  /** The fields the indexes following each collection read of a document before a write replaces it. */
  const beforeFields = Object.fromEntries(
    COLLECTIONS.map((collection) => [
      collection,
      indexes.filter((index) => index.collection === collection).flatMap((index) => Object.keys(index.before)),
    ]),
  ) as Record<Collection, string[]>;

  const checkpointOf = async (on: Query, g: number, name: string) =>
    Number((await on<{ position: string }>(`SELECT position FROM ${table('checkpoints', g)} WHERE name = $1`, [name]))[0]?.position ?? 0);

  function writer(generation: number): ReadModelWriter {
    /** What a write reads of the documents it replaces, per collection: version, filter fields, what the indexes read. */
    const storedQuery = Object.fromEntries(
      COLLECTIONS.map((collection) => {
        const filters = FILTERABLE[collection].map((f) => `, ${column(f)} AS "${f}"`).join('');
        const before = indexes
          .filter((index) => index.collection === collection)
          .flatMap((index) => Object.entries(index.before).map(([field, expression]) => `, ${expression} AS "before_${field}"`))
          .join('');
        return [
          collection,
          `SELECT id, version, deleted${filters}${before} FROM ${table(collection, generation)} WHERE id = ANY($1::text[])`,
        ];
      }),
    ) as Record<Collection, string>;

    async function readStored(on: Query, writes: DocumentWrite[]): Promise<Map<string, Stored>> {
      const stored = new Map<string, Stored>();
      for (const collection of COLLECTIONS) {
        const ids = [...new Set(writes.filter((w) => w.collection === collection).map((w) => w.doc.id))];
        if (ids.length === 0) continue;
        for (const row of await on<Record<string, unknown>>(storedQuery[collection], [ids])) {
          stored.set(`${collection}\u0000${row.id}`, {
            version: Number(row.version),
            deleted: row.deleted === true,
            filters: Object.fromEntries(FILTERABLE[collection].map((f) => [f, row[f] as string | null])),
            before: Object.fromEntries(
              Object.keys(row).flatMap((k) => (k.startsWith('before_') ? [[k.slice('before_'.length), row[k]]] : [])),
            ),
          });
        }
      }
      return stored;
    }

    /** A document's filterable fields as its row keeps them. */
    const filtersOf = (collection: Collection, doc: ReadDocument) =>
      Object.fromEntries(FILTERABLE[collection].map((f) => [f, fieldValue(doc, f)]));

    /** A column of the documents' table as a write sends it: as text unless said, and what makes the column of it. */
    interface Sent {
      name: string;
      type: string;
      valueOf(doc: ReadDocument): unknown;
      from?: (sent: string) => string;
    }
    const sentColumns = Object.fromEntries(
      COLLECTIONS.map((collection): [Collection, Sent[]] => [
        collection,
        [
          { name: 'id', type: 'text', valueOf: (doc) => doc.id },
          { name: 'version', type: 'integer', valueOf: (doc) => doc.version },
          { name: 'seq', type: 'bigint', valueOf: (doc) => doc.seq },
          { name: 'deleted', type: 'boolean', valueOf: (doc) => doc.deleted },
          { name: 'body', type: 'text', valueOf: (doc) => JSON.stringify(doc.fields) },
          ...COLUMN_FIELDS[collection].map((f) => ({ name: column(f), type: 'text', valueOf: (doc: ReadDocument) => fieldValue(doc, f) })),
          ...indexes
            .filter((index) => index.collection === collection)
            .flatMap((index) => index.columns.map((c) => ({ name: c.name, type: 'text', valueOf: c.valueOf, from: c.from }))),
        ],
      ]),
    ) as Record<Collection, Sent[]>;

    /** Writes a collection's documents, one statement for all: each column sent as an array. */
    async function writeDocuments(on: Query, collection: Collection, docs: ReadDocument[]): Promise<void> {
      const sent = sentColumns[collection];
      const names = sent.map((c) => c.name);
      await on(
        `INSERT INTO ${table(collection, generation)} (${names.join(', ')})
         SELECT ${sent.map((c) => (c.from ? c.from(`u.${c.name}`) : `u.${c.name}`)).join(', ')}
           FROM unnest(${sent.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')}) AS u(${names.join(', ')})
         ON CONFLICT (id) DO UPDATE SET ${names
           .filter((name) => name !== 'id' && name !== 'seq')
           .map((name) => `${name} = excluded.${name}`)
           .join(', ')}`,
        sent.map((c) => docs.map((doc) => c.valueOf(doc))),
      );
    }

    return {
      generation,
      async getMany<C extends Collection>(collection: C, ids: string[]) {
        const rows = await query<Row & Record<string, unknown>>(
          `SELECT ${ROW} FROM ${table(collection, generation)} WHERE id = ANY($1::text[])`,
          [[...new Set(ids)]],
        );
        return new Map(rows.map((row) => [row.id, toDocument<C>(row)]));
      },

      async write(writes, checkpoint) {
        await transaction(async (on) => {
          await on(`SELECT pg_advisory_xact_lock_shared(${GENERATIONS_LOCK}), pg_advisory_xact_lock(${WRITE_LOCK}, $1)`, [generation]);
          const stored = await readStored(on, writes);
          const counts = new Map<string, { collection: Collection; key: CountKey; delta: number }>();
          const batches = indexes.map((index) => index.batch(generation));
          /** The documents to write, the last applied write of each, per collection. */
          const written = new Map<Collection, Map<string, ReadDocument>>(COLLECTIONS.map((c) => [c, new Map()]));
          for (const write of writes) {
            const { collection, doc, expectedVersion } = write;
            const place = `${collection}\u0000${doc.id}`;
            const before = stored.get(place);
            const applies = expectedVersion === null ? before === undefined : before?.version === expectedVersion;
            if (!applies) continue;
            const filters = filtersOf(collection, doc);
            for (const { key, delta } of countChanges(
              before && !before.deleted ? countKeysOf(collection, before.filters) : [],
              doc.deleted ? [] : countKeysOf(collection, filters),
            )) {
              const id = `${collection}\u0000${key[0]}\u0000${key[1]}`;
              const summed = counts.get(id);
              if (summed) summed.delta += delta;
              else counts.set(id, { collection, key, delta });
            }
            const replaced: Replaced | undefined = before && { deleted: before.deleted, before: before.before };
            for (const [i, index] of indexes.entries()) if (index.collection === collection) batches[i]!.applied(write, replaced);
            written.get(collection)!.set(doc.id, doc);
            // The next write of it in this batch replaces this one.
            stored.set(place, {
              version: doc.version,
              deleted: doc.deleted,
              filters,
              before: Object.fromEntries(beforeFields[collection].map((field) => [field, Reflect.get(doc.fields, field)])),
            });
          }
          for (const [collection, docs] of written) if (docs.size > 0) await writeDocuments(on, collection, [...docs.values()]);
          const changed = [...counts.values()].filter((c) => c.delta !== 0);
          if (changed.length > 0) {
            await on(
              `INSERT INTO ${table('counts', generation)} (collection, fields, value, n)
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
               ON CONFLICT (collection, fields, value) DO UPDATE SET n = ${table('counts', generation)}.n + excluded.n`,
              [changed.map((c) => c.collection), changed.map((c) => c.key[0]), changed.map((c) => c.key[1]), changed.map((c) => c.delta)],
            );
          }
          for (const batch of batches) await batch.flush(on);
          await on(
            `INSERT INTO ${table('checkpoints', generation)} (name, position) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET position = greatest(${table('checkpoints', generation)}.position, excluded.position)`,
            [checkpoint.name, checkpoint.position],
          );
        });
      },

      checkpoint: (name) => checkpointOf(query, generation, name),
    };
  }

  return {
    async activeGeneration() {
      served = await meta('active_generation');
      return served;
    },

    servedCheckpoint: (name) => onActive((g) => checkpointOf(query, g, name)),

    async createGeneration() {
      return transaction(async (on) => {
        await on(`SELECT pg_advisory_xact_lock(${GENERATIONS_LOCK})`);
        const [made] = await on<{ value: number }>("UPDATE read_meta SET value = value + 1 WHERE key = 'last_generation' RETURNING value");
        const generation = Number(made!.value);
        await on(generationSchema(generation, indexes));
        return generation;
      });
    },

    async pendingGeneration() {
      const [last, current] = [await meta('last_generation'), await meta('active_generation')];
      return last > current ? last : undefined;
    },

    async promote(generation) {
      const promoted = await transaction(async (on) => {
        await on(`SELECT pg_advisory_xact_lock(${GENERATIONS_LOCK})`);
        const old = await meta('active_generation', on);
        if (old === generation) return true;
        if ((await checkpointOf(on, generation, READ_MODELS_CHECKPOINT)) < (await checkpointOf(on, old, READ_MODELS_CHECKPOINT)))
          return false;
        await on("UPDATE read_meta SET value = $1 WHERE key = 'active_generation'", [generation]);
        await on(
          `DROP TABLE IF EXISTS ${generationTables(indexes)
            .map((name) => table(name, old))
            .join(', ')}`,
        );
        return true;
      });
      if (promoted) served = generation;
      return promoted;
    },

    writer,

    async loadCheckpoint(name) {
      const [row] = await query<{ position: string }>('SELECT position FROM follower_checkpoints WHERE name = $1', [name]);
      return Number(row?.position ?? 0);
    },

    async saveCheckpoint(name, position) {
      await query(
        `INSERT INTO follower_checkpoints (name, position) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET position = greatest(follower_checkpoints.position, excluded.position)`,
        [name, position],
      );
    },

    get: <C extends Collection>(collection: C, id: string) =>
      onActive(async (g) => {
        const [row] = await query<Row & Record<string, unknown>>(`SELECT ${ROW} FROM ${table(collection, g)} WHERE id = $1`, [id]);
        return row ? toDocument<C>(row) : undefined;
      }),

    userByEmail: (email) =>
      onActive(async (g) => {
        const [row] = await query<Row & Record<string, unknown>>(
          `SELECT ${ROW} FROM ${table('users', g)} WHERE ${EMAIL_KEY} = lower(trim($1)) AND NOT deleted LIMIT 1`,
          [String(email)],
        );
        return row ? toDocument<'users'>(row) : undefined;
      }),

    list: <C extends Collection>(collection: C, listing: ListQuery) =>
      onActive(async (g) => {
        const name = table(collection, g);
        const conditions = ['NOT deleted'];
        const params: unknown[] = [];
        for (const [field, value] of Object.entries(listing.filter ?? {})) {
          if (!FILTERABLE[collection].includes(field)) throw new TypeError(`${collection} cannot be filtered by ${field}`);
          params.push(String(value));
          conditions.push(`${column(field)} = $${params.length}`);
        }
        const where = conditions.join(' AND ');
        if ('beforeSeq' in listing) {
          params.push(listing.beforeSeq ?? Number.MAX_SAFE_INTEGER, listing.limit);
          const rows = await query<Row & Record<string, unknown>>(
            `SELECT ${ROW} FROM ${name} WHERE ${where} AND seq < $${params.length - 1} ORDER BY seq DESC LIMIT $${params.length}`,
            params,
          );
          return { items: rows.map((row) => toDocument<C>(row)) };
        }
        params.push(listing.limit, listing.offset);
        const rows = await query<Row & Record<string, unknown>>(
          `SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
          params,
        );
        const [fields, value] = countKeyOf(listing.filter ?? {});
        const [counted] = await query<{ n: string }>(
          `SELECT n FROM ${table('counts', g)} WHERE collection = $1 AND fields = $2 AND value = $3`,
          [collection, fields, value],
        );
        return { items: rows.map((row) => toDocument<C>(row)), total: Number(counted?.n ?? 0) };
      }),

    readActive: (read) => onActive((generation) => read(query, generation)),

    close: () => pool.end(),
  };
}

/**
 * Records the indexes the store is opened with, and refuses one opened without an index the
 * database keeps: written without it, the index would miss those writes.
 */
async function keepsItsIndexes(on: Query, indexes: readonly PostgresReadModelIndex[]): Promise<void> {
  const given = new Set(indexes.map((index) => index.name));
  const kept = (await on<{ name: string }>('SELECT name FROM read_indexes')).map((row) => row.name);
  const missing = kept.filter((name) => !given.has(name));
  if (missing.length > 0) {
    throw new Error(`this read store keeps the index ${missing.join(', ')}: open it with it (read-models/open.ts opens every index)`);
  }
  for (const name of given) await on('INSERT INTO read_indexes (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
}
