// Product search's index in the SQLite read store: told of each product write in the batch's
// transaction (read-store/sqlite-indexes.ts), it keeps the full-text indexes and the vocabularies
// of the generation in step with the product documents.
import type { DatabaseSync } from 'node:sqlite';
import type { IndexBatch, Prepare, Replaced, SqliteReadModelIndex } from '../read-store/sqlite-indexes.ts';
import { table } from '../read-store/sqlite-schema.ts';
import { type ProductText, vocabularyChanges } from './planner.ts';
import { ftsMerging, SEARCH_TABLES, searchSchema, upgradeSearch, variantsOf } from './sqlite-schema.ts';

/** What the full index holds of a product: the words of both its fields. */
const allText = ({ name, description }: ProductText) => `${name} ${description}`;

function addDeltas(sums: Map<string, number>, deltas: Array<[string, number]>): void {
  for (const [term, delta] of deltas) sums.set(term, (sums.get(term) ?? 0) + delta);
}

export const sqliteProductIndex: SqliteReadModelIndex = {
  name: 'product-search',
  collection: 'products',
  tables: SEARCH_TABLES,
  schema: searchSchema,
  upgrade: upgradeSearch,
  before: { name: "json_extract(body, '$.name')", description: "json_extract(body, '$.description')" },
  batch: productBatch,
  startBulk: ftsMerging.bulk,
  isBulk: ftsMerging.isBulk,
  settle: ftsMerging.settle,
  restore: ftsMerging.restore,
  maintain: ftsMerging.mergeStep,
};

/**
 * What a batch changes in the search tables, gathered while its documents are written and written
 * once at its end:
 * - Full-text rows, by rowid (the product's seq), in rowid order. FTS5 buffers a transaction's
 *   postings in memory only while rowids ascend: a write to a lower rowid (a product changed after
 *   newer ones were added) flushes the buffer into a segment of its own, and more segments cost
 *   more merging at commit. In order, a batch that changes products measured 1.7x faster, and two
 *   changes of one product in a batch become one.
 * - Vocabulary deltas, summed: a thousand new products make their words one update each (`words`
 *   for the names' vocabulary, `allWords` for names and descriptions).
 */
function productBatch(prepare: Prepare, db: DatabaseSync, generation: number): IndexBatch {
  const fts = table('products_fts', generation);
  const names = table('products_names_fts', generation);
  const terms = table('products_name_terms', generation);
  const allTerms = table('products_terms', generation);
  const termVariants = variantsOf(db, generation);
  const fullText = new Map<number, { replaces: boolean; text: ProductText | undefined }>();
  const words = new Map<string, number>();
  // Asked in the batch's transaction: a store opened meanwhile may have ended the bulk load
  // (ftsMerging.restore). While one fills the generation, the vocabulary of both fields is counted
  // once at its end (ftsMerging.settle). Asked at the batch's first product: a batch of sign-ups
  // asks nothing.
  let allWords: Map<string, number> | undefined | null = null;
  const allWordsOfBatch = () => {
    if (allWords === null) allWords = ftsMerging.isBulk(db, generation) ? undefined : new Map<string, number>();
    return allWords;
  };

  return {
    applied(write, replaced: Replaced | undefined) {
      if (write.collection !== 'products') return;
      const { doc } = write;
      const after = doc.deleted ? undefined : { name: doc.fields.name, description: doc.fields.description };
      fullText.set(doc.seq, {
        // A new product has nothing in the indexes to replace.
        replaces: fullText.get(doc.seq)?.replaces ?? replaced !== undefined,
        text: after,
      });
      const before =
        replaced && !replaced.deleted
          ? { name: String(replaced.before.name ?? ''), description: String(replaced.before.description ?? '') }
          : undefined;
      addDeltas(words, vocabularyChanges(before?.name, after?.name));
      const counted = allWordsOfBatch();
      if (counted) addDeltas(counted, vocabularyChanges(before && allText(before), after && allText(after)));
    },

    flush() {
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
    },
  };
}
