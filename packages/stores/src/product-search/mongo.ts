// Product search on the MongoDB read store. Plain MongoDB's $text cannot match a prefix, which
// search-as-you-type needs, so each product carries `tokens` (its words, as the query is split)
// under a multikey index, written on the product document in the same write (mongoProductIndex).
// A query takes the products holding every term, the last as the start of a word (an anchored,
// escaped regex, which uses the index), and ranks the newest SEARCH_CANDIDATES of them with
// rankByRelevance(), as the SQLite adapter does (which also ranks the newest name matches). The
// words of names are kept as a set per generation (products_name_terms) for completions and
// typos; a store built before that set existed completes and corrects nothing until `npm run rebuild`.
import type { Collection as MongoCollection, Db } from 'mongodb';
import { words } from '@eventide/kernel/search/words.ts';
import type { MongoReadModelIndex } from '../read-store/mongo-indexes.ts';
import { type MongoReadStore, name, type StoredDocument, toDocument } from '../read-store/mongo.ts';
import { oneEditAway, planQuery, rankByRelevance, SEARCH_CANDIDATES, searchTerms, type Vocabulary } from './planner.ts';
import type { ProductSearch } from './port.ts';

const VOCABULARY_CANDIDATES = 20;
const VOCABULARY_COUNT_CAP = 1000;

/** What search stores on a product document. */
interface SearchFields {
  tokens: string[];
  /** The words of the name alone: what the vocabulary counts. */
  nameTokens: string[];
}

const nameTerms = (db: Db, generation: number) => db.collection<{ _id: string }>(name('products_name_terms', generation));

export const mongoProductIndex: MongoReadModelIndex = {
  collection: 'products',
  fieldsOf(write): Partial<SearchFields> {
    if (write.collection !== 'products') return {};
    const { name: productName, description } = write.doc.fields;
    return { tokens: [...new Set(words(`${productName} ${description}`))], nameTokens: [...new Set(words(productName))] };
  },
  collections: ['products_name_terms'],
  async ensure(db, generation) {
    const products = db.collection<StoredDocument>(name('products', generation));
    await products.createIndex({ tokens: 1 });
    await products.createIndex({ nameTokens: 1 });
  },
  async afterWrite(db, generation, writes) {
    const nameWords = new Set(writes.flatMap((w) => (w.collection === 'products' && !w.doc.deleted ? words(w.doc.fields.name) : [])));
    if (nameWords.size === 0) return;
    // A set of words, not counts: writing it twice (a replay) changes nothing. How many live
    // names hold a word is counted when it is looked up (vocabularyOf).
    await nameTerms(db, generation).bulkWrite(
      [...nameWords].map((term) => ({ updateOne: { filter: { _id: term }, update: { $setOnInsert: { _id: term } }, upsert: true } })),
      { ordered: false },
    );
  },
};

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Product search on the products of the MongoDB read store `store` (opened with mongoProductIndex). */
export function mongoProductSearch(store: MongoReadStore): ProductSearch {
  return {
    async search(text, limit) {
      // Not bounded yet beyond its candidates (docs/api.md#search): every search is read to its end.
      if (searchTerms(text).length === 0) return { hits: [], complete: true };
      return store.readActive(async (documents, db, generation) => {
        const products = documents('products');
        const query = await planQuery(text, vocabularyOf(products, db, generation));
        if (query.some((word) => word.standsForNothing)) return { hits: [], complete: true };
        const candidates = await products
          .find({
            deleted: false,
            $and: query.map(({ term, prefix, completions, typos }) => ({
              $or: [{ tokens: prefix ? { $regex: `^${escapeRegex(term)}` } : term }, { tokens: { $in: [...completions, ...typos] } }],
            })),
          })
          .sort({ seq: -1 })
          .limit(SEARCH_CANDIDATES)
          .toArray();
        const hits = rankByRelevance(
          candidates.map((stored) => toDocument<'products'>(stored)),
          query,
          limit,
        );
        return { hits, complete: true };
      });
    },
  };
}

/**
 * The words of product names, most frequent first. Counting stops at VOCABULARY_COUNT_CAP per
 * word and looks at VOCABULARY_CANDIDATES words at most, so a lookup's cost is bounded.
 */
function vocabularyOf(products: MongoCollection<StoredDocument>, db: Db, generation: number): Vocabulary {
  const ranked = async (candidates: string[], limit: number) => {
    const counted = await Promise.all(
      candidates.map(async (term) => ({
        term,
        docs: await products.countDocuments({ nameTokens: term, deleted: false }, { limit: VOCABULARY_COUNT_CAP }),
      })),
    );
    return counted
      .filter((c) => c.docs > 0)
      .sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1))
      .slice(0, limit)
      .map((c) => c.term);
  };
  return {
    async occurs(term, prefix) {
      const holding = (tokens: string | { $regex: string }) => products.findOne({ deleted: false, tokens }, { projection: { _id: 1 } });
      return (await holding(term)) !== null || (prefix && (await holding({ $regex: `^${escapeRegex(term)}` })) !== null);
    },
    async startingWith(prefix, limit) {
      const found = await nameTerms(db, generation)
        .find({ _id: { $gte: prefix, $lt: `${prefix}\u{10FFFF}` } })
        .limit(VOCABULARY_CANDIDATES)
        .toArray();
      return ranked(
        found.map((t) => t._id),
        limit,
      );
    },
    async typosOf(word, limit) {
      const found = await nameTerms(db, generation)
        .find({ _id: { $in: oneEditAway(word) } })
        .limit(VOCABULARY_CANDIDATES)
        .toArray();
      return ranked(
        found.map((t) => t._id),
        limit,
      );
    },
  };
}
