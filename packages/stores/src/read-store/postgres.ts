// The read store on PostgreSQL (DATABASE_URL): every process on the database reads the same read
// models, and any of them may project or rebuild. A batch of writes is one transaction of a few
// statements (postgres-writer.ts).
//
// Generations: a write takes a shared lock on the generations and a promotion an exclusive one, so
// a promotion compares checkpoints with no write under way, and drops the generation it replaces
// in the same transaction; a projector still writing to it then fails, looks, and follows the new
// one (projector.ts), as on SQLite.
import { type Collection, COLLECTIONS, type ListQuery, READ_MODELS_CHECKPOINT, type ReadStore } from './port.ts';
import { countKeyOf } from './live-counts.ts';
import type { PostgresReadModelIndex, Query } from './postgres-indexes.ts';
import { checkpointOf, GENERATIONS_LOCK, postgresWriter } from './postgres-writer.ts';
import { column, EMAIL_KEY, generationSchema, generationTables, READ_STORE_STEPS, ROW, type Row, table } from './postgres-schema.ts';
import { toDocument } from './documents.ts';
import { listSql } from './list-sql.ts';
import { reaching } from '../postgres/errors.ts';
import { migrate } from '../postgres/migrations.ts';
import { openPool } from '../postgres/pool.ts';
import { inTransaction } from '../postgres/transaction.ts';

const STORE = 'read models';
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

export async function openPostgresReadStore(url: string, options: PostgresReadStoreOptions = {}): Promise<PostgresReadStore> {
  const indexes = options.indexes ?? [];
  const pool = openPool(url, options.poolSize);
  const query: Query = async (text, values) => (await reaching(STORE, () => pool.query(text, values))).rows;

  /** Runs `body` in a transaction on one connection. */
  async function transaction<T>(body: (query: Query) => Promise<T>): Promise<T> {
    return reaching(STORE, () => inTransaction(pool, (client) => body(async (text, values) => (await client.query(text, values)).rows)));
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
      if (!promoted) return false;
      served = generation;
      // A generation filled at once has no statistics until autovacuum comes by: the planner
      // would guess, and at 1,000,000 events a guess read whole tables.
      await query(`ANALYZE ${COLLECTIONS.map((collection) => table(collection, generation)).join(', ')}`);
      return true;
    },

    writer: (generation) => postgresWriter({ query, transaction, indexes }, generation),

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
        const params: unknown[] = [];
        const place = (value: unknown) => {
          params.push(typeof value === 'number' ? value : String(value));
          return `$${params.length}`;
        };
        const { conditions, orderBy } = listSql(collection, listing, place, column);
        const where = ['NOT deleted', ...conditions].join(' AND ');
        if (!('offset' in listing)) {
          const rows = await query<Row & Record<string, unknown>>(
            `SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY ${orderBy} LIMIT ${place(listing.limit)}`,
            params,
          );
          return { items: rows.map((row) => toDocument<C>(row)) };
        }
        const rows = await query<Row & Record<string, unknown>>(
          `SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY ${orderBy} LIMIT ${place(listing.limit)} OFFSET ${place(listing.offset)}`,
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
