// A writer of one generation of the PostgreSQL read store (postgres.ts): a batch of writes in one
// transaction of a few statements, whatever its size. The documents it replaces are read with one
// statement a collection; which writes apply is decided here (a stale replay skips, as the port
// says), following each document through the batch; then each collection's documents, the live
// counts, what the indexes keep and the checkpoint are written with one statement each (arrays,
// unnest). Under a shared lock on the generations (a promotion takes it alone) and the
// generation's own write lock (a batch decides from what it read).
import { COLLECTIONS, type Collection, type DocumentWrite, FILTERABLE, type ReadDocument, type ReadModelWriter } from './port.ts';
import { countChanges, countKeysOf, type CountKey } from './live-counts.ts';
import type { PostgresReadModelIndex, Query, Replaced } from './postgres-indexes.ts';
import { COLUMN_FIELDS, column, ROW, type Row, table } from './postgres-schema.ts';
import { toDocument } from './documents.ts';

/** Writes share it, promotions and the making of a generation's tables take it alone. */
export const GENERATIONS_LOCK = "hashtext('eventide:read-models:generations')";
/** One writer of a generation at a time: a batch decides what applies from what it read. */
const WRITE_LOCK = "hashtext('eventide:read-models:write')";

export interface WriterDeps {
  query: Query;
  transaction: <T>(body: (on: Query) => Promise<T>) => Promise<T>;
  indexes: readonly PostgresReadModelIndex[];
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

/** The fields the indexes following each collection read of a document before a write replaces it. */
function beforeFieldsOf(indexes: readonly PostgresReadModelIndex[]): Record<Collection, string[]> {
  return Object.fromEntries(
    COLLECTIONS.map((collection) => [
      collection,
      indexes.filter((index) => index.collection === collection).flatMap((index) => Object.keys(index.before)),
    ]),
  ) as Record<Collection, string[]>;
}

/** Where generation `g` has got for the checkpoint `name` (0 before its first write). */
export const checkpointOf = async (on: Query, g: number, name: string) =>
  Number((await on<{ position: string }>(`SELECT position FROM ${table('checkpoints', g)} WHERE name = $1`, [name]))[0]?.position ?? 0);

export function postgresWriter({ query, transaction, indexes }: WriterDeps, generation: number): ReadModelWriter {
  const beforeFields = beforeFieldsOf(indexes);
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
