// Embedded read store on SQLite (node:sqlite), with the indexes it is given (product search) kept
// in the documents' transactions (sqlite-indexes.ts). Fit for production
// on one node. synchronous=NORMAL is enough: documents and checkpoint commit together, so a
// power cut loses both at once and the projector replays from the older checkpoint.
import {
  COLLECTIONS,
  FILTERABLE,
  type Collection,
  type DocumentWrite,
  type ListQuery,
  type ReadDocument,
  type ReadModelWriter,
  type ReadStore,
  READ_MODELS_CHECKPOINT,
} from './port.ts';
import type { IndexBatch, Prepare, SqliteReadModelIndex } from './sqlite-indexes.ts';
import { betweenWrites } from './between-writes.ts';
import { type Checkpoints, checkpointsOnAThread } from '../checkpoints/on-a-thread.ts';
import { countChanges, countKeyOf, countKeysOf } from './live-counts.ts';
import { inWriteTransaction, LIMIT_PLACEHOLDER, openSqliteFile, statementCache } from '../sqlite-file.ts';
import { column, EMAIL_KEY, generationTables, openSchema, schema, ROW, type Row, table } from './sqlite-schema.ts';
import { type DocumentColumns, documentOfColumns, toDocument } from './documents.ts';
import { listSql } from './list-sql.ts';

/** The SQLite read store, and a way for its indexes' readers (product search) to read the generation it serves. */
export interface SqliteReadStore extends ReadStore {
  /**
   * Runs a read on the generation served; once more if a promotion dropped its tables meanwhile.
   * `prepareColumns` prepares statements whose rows come as arrays of their columns (cheaper: see
   * documentOfColumns), `prepare` those whose rows come as objects.
   */
  readActive<T>(read: (prepare: Prepare, generation: number, prepareColumns: Prepare) => T | Promise<T>): Promise<T>;
}

export interface SqliteReadStoreOptions {
  /** What it keeps beside the documents, in their transactions (product-search/sqlite-index.ts). */
  indexes?: readonly SqliteReadModelIndex[];
  /**
   * This store will write much more than it serves (a seed's read models), so the active
   * generation's indexes fill as a rebuild's do (startBulk) until close().
   */
  bulkLoad?: boolean;
}

export function openSqliteReadStore(path: string, options: SqliteReadStoreOptions = {}): SqliteReadStore {
  const indexes = options.indexes ?? [];
  const db = openSqliteFile(path, 'NORMAL');
  const transaction = <T>(body: () => T): T => inWriteTransaction(db, body);
  // What an update or a delete frees is zeroed where that costs no extra I/O; an erasure zeroes
  // everything it frees and empties the write-ahead log (erase below).
  db.exec('PRAGMA secure_delete = FAST');
  /**
   * The checkpoints of the file's write-ahead log, handed to a thread of their own by the first
   * write of documents: the projector's commits (or a rebuild's) must not wait for them. A store
   * that only reads, or only keeps a follower's checkpoint, leaves them to SQLite, as one
   * thread for the file in a process is enough.
   */
  let walCheckpoints: Checkpoints | undefined;
  const atOpen = openSchema(db, indexes);
  // A bulk load that never reached close() (a killed seed) would leave its merging behind. One
  // still running when another store opens gets the defaults back too: slower, no less right.
  const bulkLoaded = options.bulkLoad ? atOpen : undefined;
  for (const index of indexes) {
    if (bulkLoaded === undefined) index.restore(db, atOpen);
    else index.startBulk(db, bulkLoaded);
  }
  /** Ends a bulk load of the generation, where one is under way: once, as it is over when it returns. */
  const settle = (generation: number) => {
    const bulk = indexes.filter((index) => index.isBulk(db, generation));
    if (bulk.length === 0) return;
    transaction(() => {
      for (const index of bulk) index.settle(db, generation);
    });
  };

  const prepare: Prepare & { clear(): void } = statementCache(db);
  // The reads' statements of documents (ROW), whose rows are read as arrays (documents.ts).
  const prepareColumns = statementCache(db, { arrays: true });
  /** The indexes' deferred work on a generation, a step in a transaction of its own. */
  const deferred = betweenWrites((generation) => {
    const more = transaction(() => indexes.some((index) => index.maintain(prepare, generation)));
    walCheckpoints?.committed();
    return more;
  });
  const meta = (key: string) => Number((prepare('SELECT value FROM read_meta WHERE key = ?').get(key) as { value: number }).value);
  /**
   * The generation reads are served from, remembered: looking it up on every read was a statement
   * (and a read transaction) of its own, more than the read itself costs. A promotion in this
   * process updates it; one in another process drops the old generation's tables right after, and
   * the first read that misses them looks again (onActive).
   */
  let served: number | undefined = atOpen;
  const active = () => (served ??= meta('active_generation'));

  /** Runs a read on the active generation; once more if a promotion dropped its tables meanwhile. */
  async function onActive<T>(read: (generation: number) => T | Promise<T>): Promise<T> {
    try {
      return await read(active());
    } catch (error) {
      if (!String((error as Error).message).includes('no such table')) throw error;
      prepare.clear();
      prepareColumns.clear();
      served = undefined;
      return read(active());
    }
  }

  /**
   * Runs writes that forget someone so that no copy of what they replace stays in the files: every
   * page they free is zeroed (FAST leaves whole freed pages as they were), and the write-ahead log,
   * which still holds the pages as they were before, is checkpointed into the file and emptied.
   */
  function erase(writes: () => void): void {
    db.exec('PRAGMA secure_delete = ON');
    try {
      writes();
    } finally {
      db.exec('PRAGMA secure_delete = FAST');
    }
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /** Where generation `g` has got for the checkpoint `name` (0 before its first write). */
  function checkpointOf(g: number, name: string): number {
    const row = prepare(`SELECT position FROM ${table('checkpoints', g)} WHERE name = ?`).get(name) as { position: number } | undefined;
    return Number(row?.position ?? 0);
  }

  function writer(generation: number): ReadModelWriter {
    const checkpoints = table('checkpoints', generation);
    const counts = table('counts', generation);

    /**
     * Count deltas, summed over a batch and written once at its end: a thousand new products in
     * twenty categories make twenty count updates, not two thousand.
     */
    type CountDeltas = Map<string, { collection: Collection; key: readonly [string, string]; delta: number }>;

    function writeCounts(countDeltas: CountDeltas): void {
      for (const { collection, key, delta } of countDeltas.values()) {
        if (delta === 0) continue;
        prepare(
          `INSERT INTO ${counts} (collection, fields, value, n) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`,
        ).run(collection, key[0], key[1], delta);
      }
    }

    /** What a write reads of the document it replaces, per collection: its version, its filter fields, what the indexes that follow it read. */
    const storedQuery = Object.fromEntries(
      COLLECTIONS.map((collection) => {
        const filterColumns = FILTERABLE[collection].map((f) => `, ${column(f)} AS ${f}`).join('');
        const beforeColumns = indexes
          .filter((index) => index.collection === collection)
          .flatMap((index) => Object.entries(index.before).map(([field, expression]) => `, ${expression} AS before_${field}`))
          .join('');
        return [collection, `SELECT version, deleted${filterColumns}${beforeColumns} FROM ${table(collection, generation)} WHERE id = ?`];
      }),
    ) as Record<Collection, string>;
    const followed = new Set(indexes.map((index) => index.collection));

    function applyWrite(write: DocumentWrite, countDeltas: CountDeltas, indexBatches: IndexBatch[]): void {
      const { collection, doc, expectedVersion } = write;
      const name = table(collection, generation);
      const stored = prepare(storedQuery[collection]).get(doc.id) as
        | ({ version: number; deleted: number } & Record<string, string | number | null>)
        | undefined;
      const applies = expectedVersion === null ? stored === undefined : stored?.version === expectedVersion;
      if (!applies) return;
      const before = stored && stored.deleted === 0 ? countKeysOf(collection, stored) : [];
      const after = doc.deleted ? [] : countKeysOf(collection, doc.fields);
      for (const { key, delta } of countChanges(before, after)) {
        const id = `${collection}\u0000${key[0]}\u0000${key[1]}`;
        const summed = countDeltas.get(id);
        if (summed) summed.delta += delta;
        else countDeltas.set(id, { collection, key, delta });
      }
      prepare(
        `INSERT INTO ${name} (id, version, seq, deleted, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, deleted = excluded.deleted, body = excluded.body`,
      ).run(doc.id, doc.version, doc.seq, doc.deleted ? 1 : 0, JSON.stringify(doc.fields));
      if (!followed.has(collection)) return;
      const replaced = stored && {
        deleted: stored.deleted === 1,
        before: Object.fromEntries(
          Object.keys(stored).flatMap((k) => (k.startsWith('before_') ? [[k.slice('before_'.length), stored[k]]] : [])),
        ),
      };
      for (const [i, index] of indexes.entries()) if (index.collection === collection) indexBatches[i]!.applied(write, replaced);
    }

    return {
      generation,
      async getMany<C extends Collection>(collection: C, ids: string[]) {
        const found = new Map<string, ReadDocument<C>>();
        const select = prepare(`SELECT ${ROW} FROM ${table(collection, generation)} WHERE id = ?`);
        for (const id of new Set(ids)) {
          const row = select.get(id) as Row | undefined;
          if (row) found.set(id, toDocument<C>(row));
        }
        return found;
      },
      async write(writes, checkpoint, { erasing = false } = {}) {
        const apply = () =>
          transaction(() => {
            const countDeltas: CountDeltas = new Map();
            const indexBatches = indexes.map((index) => index.batch(prepare, db, generation));
            for (const write of writes) applyWrite(write, countDeltas, indexBatches);
            writeCounts(countDeltas);
            for (const batch of indexBatches) batch.flush();
            prepare(
              `INSERT INTO ${checkpoints} (name, position) VALUES (?, ?)
             ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
            ).run(checkpoint.name, checkpoint.position);
          });
        if (erasing) erase(apply);
        else apply();
        walCheckpoints ??= checkpointsOnAThread(db, path, 'NORMAL');
        walCheckpoints.committed();
        // Only an index's own collection leaves it work: a batch of sign-ups merges nothing.
        deferred.after(
          generation,
          writes.some((write) => followed.has(write.collection)),
        );
      },
      async checkpoint(name) {
        return checkpointOf(generation, name);
      },
      expectWrite: () => deferred.expect(),
    };
  }

  return {
    async activeGeneration() {
      served = meta('active_generation');
      return served;
    },

    async servedCheckpoint(name) {
      return onActive((g) => checkpointOf(g, name));
    },

    async createGeneration() {
      return transaction(() => {
        const generation = meta('last_generation') + 1;
        prepare("UPDATE read_meta SET value = ? WHERE key = 'last_generation'").run(generation);
        db.exec(schema(generation, indexes));
        for (const index of indexes) index.startBulk(db, generation);
        return generation;
      });
    },

    async pendingGeneration() {
      const [last, served] = [meta('last_generation'), meta('active_generation')];
      return last > served ? last : undefined;
    },

    async promote(generation) {
      // The final merge of a bulk load, once: a promotion refused as behind is asked again.
      settle(generation);
      // One transaction, under the write lock the projector's batches take too: the active
      // generation cannot move on between the comparison and the swap, and it is gone with the
      // swap, so a projector anywhere that has not noticed yet fails to write to it (and follows
      // the new one) instead of moving it past what the new one holds.
      const previous = transaction(() => {
        const old = meta('active_generation');
        if (old === generation) return old;
        if (checkpointOf(generation, READ_MODELS_CHECKPOINT) < checkpointOf(old, READ_MODELS_CHECKPOINT)) return undefined;
        prepare("UPDATE read_meta SET value = ? WHERE key = 'active_generation'").run(generation);
        for (const name of generationTables(indexes)) db.exec(`DROP TABLE IF EXISTS ${table(name, old)}`);
        return old;
      });
      if (previous === undefined) return false;
      served = generation;
      if (previous !== generation) {
        prepare.clear();
        prepareColumns.clear();
      }
      return true;
    },

    writer,

    async loadCheckpoint(name) {
      const row = prepare('SELECT position FROM follower_checkpoints WHERE name = ?').get(name) as { position: number } | undefined;
      return Number(row?.position ?? 0);
    },

    async saveCheckpoint(name, position) {
      prepare(
        `INSERT INTO follower_checkpoints (name, position) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
      ).run(name, position);
      walCheckpoints?.committed();
    },

    async get<C extends Collection>(collection: C, id: string) {
      return onActive((g) => {
        const row = prepareColumns(`SELECT ${ROW} FROM ${table(collection, g)} WHERE id = ?`).get(id) as DocumentColumns | undefined;
        return row ? documentOfColumns<C>(row) : undefined;
      });
    },

    async userByEmail(email) {
      return onActive((g) => {
        const row = prepareColumns(`SELECT ${ROW} FROM ${table('users', g)} WHERE ${EMAIL_KEY} = lower(trim(?)) AND deleted = 0`).get(
          email,
        ) as DocumentColumns | undefined;
        return row ? documentOfColumns<'users'>(row) : undefined;
      });
    },

    async list<C extends Collection>(collection: C, query: ListQuery) {
      return onActive((g) => {
        const name = table(collection, g);
        const params: Array<string | number> = [];
        const { conditions, orderBy } = listSql(
          collection,
          query,
          (value) => {
            params.push(value);
            return '?';
          },
          column,
        );
        const where = ['deleted = 0', ...conditions].join(' AND ');
        if (!('offset' in query)) {
          const rows = prepareColumns(`SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY ${orderBy} LIMIT ${LIMIT_PLACEHOLDER}`).all(
            ...params,
            query.limit,
          ) as unknown as DocumentColumns[];
          return { items: rows.map((row) => documentOfColumns<C>(row)) };
        }
        const rows = prepareColumns(
          `SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY ${orderBy} LIMIT ${LIMIT_PLACEHOLDER} OFFSET ?`,
        ).all(...params, query.limit, query.offset) as unknown as DocumentColumns[];
        const [fields, value] = countKeyOf(query.filter ?? {});
        const counted = prepare(`SELECT n FROM ${table('counts', g)} WHERE collection = ? AND fields = ? AND value = ?`).get(
          collection,
          fields,
          value,
        ) as { n: number } | undefined;
        return { items: rows.map((row) => documentOfColumns<C>(row)), total: Number(counted?.n ?? 0) };
      });
    },

    readActive: (read) => onActive((generation) => read(prepare, generation, prepareColumns)),

    async close() {
      // Unless a rebuild promoted another generation meanwhile, and dropped this one.
      if (bulkLoaded !== undefined && meta('active_generation') === bulkLoaded) settle(bulkLoaded);
      deferred.stop();
      await walCheckpoints?.close();
      prepare.clear();
      prepareColumns.clear();
      db.close();
    },
  };
}
