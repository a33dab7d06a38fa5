// Embedded read store on SQLite (node:sqlite), with FTS5 for product search. Fit for production
// on one node. synchronous=NORMAL is enough: documents and checkpoint commit together, so a
// power cut loses both at once and the projector replays from the older checkpoint.
import type { StatementSync } from 'node:sqlite';
import {
  FILTERABLE,
  type Collection,
  type DocumentWrite,
  type ListQuery,
  type ReadDocument,
  type ReadModelWriter,
  type ReadStore,
  READ_MODELS_CHECKPOINT,
} from './port.ts';
import { searchTerms, vocabularyChanges } from './search-terms.ts';
import { type SearchBounds, searchProducts } from './sqlite-search.ts';
import { countChanges, countKeyOf, countKeysOf } from './live-counts.ts';
import { openSqliteFile } from '../sqlite-file.ts';
import {
  column,
  EMAIL_KEY,
  ftsMerging,
  GENERATION_TABLES,
  openSchema,
  schema,
  ROW,
  type Row,
  table,
  toDocument,
  variantsOf,
} from './sqlite-schema.ts';

interface ProductText {
  name: string;
  description: string;
}
/** What the full index holds of a product: the words of both its fields. */
const allText = ({ name, description }: ProductText) => `${name} ${description}`;

function addDeltas(sums: Map<string, number>, deltas: Array<[string, number]>): void {
  for (const [term, delta] of deltas) sums.set(term, (sums.get(term) ?? 0) + delta);
}

/**
 * `bulkLoad`: this store will write much more than it serves (a seed's read models), so the
 * active generation's full-text indexes merge as a rebuild's do (ftsMerging) until close().
 */
export function openSqliteReadStore(path: string, options: { bulkLoad?: boolean; searchBounds?: SearchBounds } = {}): ReadStore {
  const db = openSqliteFile(path, 'NORMAL');
  // What an update or a delete frees is zeroed where that costs no extra I/O; an erasure zeroes
  // everything it frees and empties the write-ahead log (erase below).
  db.exec('PRAGMA secure_delete = FAST');
  const atOpen = openSchema(db);
  // A bulk load that never reached close() (a killed seed) would leave its merging behind. One
  // still running when another store opens gets the defaults back too: slower, no less right.
  const bulkLoaded = options.bulkLoad ? atOpen : undefined;
  if (bulkLoaded === undefined) ftsMerging.restore(db, atOpen);
  else ftsMerging.bulk(db, bulkLoaded);

  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
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
      statements.clear();
      served = undefined;
      return read(active());
    }
  }

  function transaction<T>(body: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
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
    const fts = table('products_fts', generation);
    const counts = table('counts', generation);
    const names = table('products_names_fts', generation);
    const terms = table('products_name_terms', generation);
    const allTerms = table('products_terms', generation);
    const termVariants = variantsOf(db, generation);

    /**
     * What a batch changes in the indexes beside the documents, gathered while its documents are
     * written and written once at its end:
     * - Full-text rows, by rowid, in rowid order. FTS5 buffers a transaction's postings in memory
     *   only while rowids ascend: a write to a lower rowid (a product changed after newer ones were
     *   added) flushes the buffer into a segment of its own, and more segments cost more merging
     *   at commit. In order, a batch that changes products measured 1.7x faster, and two changes
     *   of one product in a batch become one.
     * - Count and vocabulary deltas, summed: a thousand new products in twenty categories make
     *   twenty count updates, not two thousand, and their words one update each (`words` for the
     *   names' vocabulary, `allWords` for names and descriptions).
     */
    interface BatchChanges {
      fullText: Map<number, { replaces: boolean; text: ProductText | undefined }>;
      counts: Map<string, { collection: Collection; key: readonly [string, string]; delta: number }>;
      words: Map<string, number>;
      /** Undefined while a bulk load fills this generation, which counts the words of both fields once it ends (ftsMerging.settle). */
      allWords: Map<string, number> | undefined;
    }

    function writeBatchChanges({ fullText, counts: countDeltas, words, allWords }: BatchChanges): void {
      for (const [rowid, { replaces, text }] of [...fullText].sort(([a], [b]) => a - b)) {
        if (replaces) {
          prepare(`DELETE FROM ${fts} WHERE rowid = ?`).run(rowid);
          prepare(`DELETE FROM ${names} WHERE rowid = ?`).run(rowid);
        }
        if (text) {
          prepare(`INSERT INTO ${fts} (rowid, name, description) VALUES (?, ?, ?)`).run(rowid, text.name, text.description);
          prepare(`INSERT INTO ${names} (rowid, name) VALUES (?, ?)`).run(rowid, text.name);
        }
      }
      for (const { collection, key, delta } of countDeltas.values()) {
        if (delta === 0) continue;
        prepare(
          `INSERT INTO ${counts} (collection, fields, value, n) VALUES (?, ?, ?, ?)
           ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`,
        ).run(collection, key[0], key[1], delta);
      }
      for (const [term, delta] of words) {
        if (delta === 0) continue;
        // Read, then write: an upsert with RETURNING measured 55 µs a word in a rebuild, ten times this.
        const held = prepare(`SELECT docs FROM ${terms} WHERE term = ?`).get(term) as { docs: number } | undefined;
        const docs = (held?.docs ?? 0) + delta;
        if (docs <= 0) {
          prepare(`DELETE FROM ${terms} WHERE term = ?`).run(term);
          termVariants.remove(term);
        } else if (held === undefined) {
          prepare(`INSERT INTO ${terms} (term, docs) VALUES (?, ?)`).run(term, docs);
          termVariants.add(term);
        } else prepare(`UPDATE ${terms} SET docs = ? WHERE term = ?`).run(docs, term);
      }
      for (const [term, delta] of allWords ?? []) {
        if (delta === 0) continue;
        // No variants to keep here, so one upsert a word: most of a seed's words are already known.
        prepare(`INSERT INTO ${allTerms} (term, docs) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs`).run(
          term,
          delta,
        );
        if (delta < 0) prepare(`DELETE FROM ${allTerms} WHERE term = ? AND docs <= 0`).run(term);
      }
    }

    function applyWrite(write: DocumentWrite, batch: BatchChanges): void {
      const { collection, doc, expectedVersion } = write;
      const name = table(collection, generation);
      const filterColumns = FILTERABLE[collection].map((f) => `, ${column(f)} AS ${f}`).join('');
      const oldText =
        collection === 'products'
          ? ", json_extract(body, '$.name') AS old_name, json_extract(body, '$.description') AS old_description"
          : '';
      const stored = prepare(`SELECT version, deleted${filterColumns}${oldText} FROM ${name} WHERE id = ?`).get(doc.id) as
        | ({ version: number; deleted: number; old_name?: string | null; old_description?: string | null } & Record<string, string | null>)
        | undefined;
      const applies = expectedVersion === null ? stored === undefined : stored?.version === expectedVersion;
      if (!applies) return;
      const before = stored && stored.deleted === 0 ? countKeysOf(collection, stored) : [];
      const after = doc.deleted ? [] : countKeysOf(collection, doc.fields);
      for (const { key, delta } of countChanges(before, after)) {
        const id = `${collection}\u0000${key[0]}\u0000${key[1]}`;
        const summed = batch.counts.get(id);
        if (summed) summed.delta += delta;
        else batch.counts.set(id, { collection, key, delta });
      }
      prepare(
        `INSERT INTO ${name} (id, version, seq, deleted, body) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, deleted = excluded.deleted, body = excluded.body`,
      ).run(doc.id, doc.version, doc.seq, doc.deleted ? 1 : 0, JSON.stringify(doc.fields));
      if (write.collection === 'products') {
        const after = write.doc.deleted ? undefined : { name: write.doc.fields.name, description: write.doc.fields.description };
        batch.fullText.set(doc.seq, {
          // A new product has nothing in the indexes to replace.
          replaces: batch.fullText.get(doc.seq)?.replaces ?? stored !== undefined,
          text: after,
        });
        const before =
          stored && stored.deleted === 0
            ? { name: String(stored.old_name ?? ''), description: String(stored.old_description ?? '') }
            : undefined;
        addDeltas(batch.words, vocabularyChanges(before?.name, after?.name));
        if (batch.allWords) addDeltas(batch.allWords, vocabularyChanges(before && allText(before), after && allText(after)));
      }
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
            // Asked in the batch's transaction: a store opened meanwhile may have ended the bulk load (ftsMerging.restore).
            const allWords = ftsMerging.isBulk(db, generation) ? undefined : new Map<string, number>();
            const batch: BatchChanges = { fullText: new Map(), counts: new Map(), words: new Map(), allWords };
            for (const write of writes) applyWrite(write, batch);
            writeBatchChanges(batch);
            prepare(
              `INSERT INTO ${checkpoints} (name, position) VALUES (?, ?)
             ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
            ).run(checkpoint.name, checkpoint.position);
          });
        if (erasing) erase(apply);
        else apply();
      },
      async checkpoint(name) {
        return checkpointOf(generation, name);
      },
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
        db.exec(schema(generation));
        ftsMerging.bulk(db, generation);
        return generation;
      });
    },

    async promote(generation) {
      // The final merge of a bulk load, once: a promotion refused as behind is asked again.
      if (ftsMerging.isBulk(db, generation)) transaction(() => ftsMerging.settle(db, generation));
      // One transaction, under the write lock the projector's batches take too: the active
      // generation cannot move on between the comparison and the swap, and it is gone with the
      // swap, so a projector anywhere that has not noticed yet fails to write to it (and follows
      // the new one) instead of moving it past what the new one holds.
      const previous = transaction(() => {
        const old = meta('active_generation');
        if (old === generation) return old;
        if (checkpointOf(generation, READ_MODELS_CHECKPOINT) < checkpointOf(old, READ_MODELS_CHECKPOINT)) return undefined;
        prepare("UPDATE read_meta SET value = ? WHERE key = 'active_generation'").run(generation);
        for (const name of GENERATION_TABLES) db.exec(`DROP TABLE IF EXISTS ${table(name, old)}`);
        return old;
      });
      if (previous === undefined) return false;
      served = generation;
      if (previous !== generation) statements.clear();
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
    },

    async get<C extends Collection>(collection: C, id: string) {
      return onActive((g) => {
        const row = prepare(`SELECT ${ROW} FROM ${table(collection, g)} WHERE id = ?`).get(id) as Row | undefined;
        return row ? toDocument<C>(row) : undefined;
      });
    },

    async userByEmail(email) {
      return onActive((g) => {
        const row = prepare(`SELECT ${ROW} FROM ${table('users', g)} WHERE ${EMAIL_KEY} = lower(trim(?)) AND deleted = 0`).get(email) as
          | Row
          | undefined;
        return row ? toDocument<'users'>(row) : undefined;
      });
    },

    async list<C extends Collection>(collection: C, query: ListQuery) {
      return onActive((g) => {
        const name = table(collection, g);
        const conditions = ['deleted = 0'];
        const params: Array<string | number> = [];
        for (const [field, value] of Object.entries(query.filter ?? {})) {
          if (!FILTERABLE[collection].includes(field)) throw new TypeError(`${collection} cannot be filtered by ${field}`);
          conditions.push(`${column(field)} = ?`);
          params.push(value);
        }
        const where = conditions.join(' AND ');
        if ('beforeSeq' in query) {
          const rows = prepare(`SELECT ${ROW} FROM ${name} WHERE ${where} AND seq < ? ORDER BY seq DESC LIMIT ?`).all(
            ...params,
            query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
            query.limit,
          ) as unknown as Row[];
          return { items: rows.map((row) => toDocument<C>(row)) };
        }
        const rows = prepare(`SELECT ${ROW} FROM ${name} WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(
          ...params,
          query.limit,
          query.offset,
        ) as unknown as Row[];
        const [fields, value] = countKeyOf(query.filter ?? {});
        const counted = prepare(`SELECT n FROM ${table('counts', g)} WHERE collection = ? AND fields = ? AND value = ?`).get(
          collection,
          fields,
          value,
        ) as { n: number } | undefined;
        return { items: rows.map((row) => toDocument<C>(row)), total: Number(counted?.n ?? 0) };
      });
    },

    async search(text, limit) {
      if (searchTerms(text).length === 0) return [];
      return onActive((g) => searchProducts(prepare, g, text, limit, options.searchBounds));
    },

    async close() {
      // Unless a rebuild promoted another generation meanwhile, and dropped this one.
      if (bulkLoaded !== undefined && meta('active_generation') === bulkLoaded) transaction(() => ftsMerging.settle(db, bulkLoaded));
      statements.clear();
      db.close();
    },
  };
}
