// MongoDB read store (the mongodb driver). Fit for production: many query processes, one
// projector. Indexes are created at start-up.
//
// Documents are written unordered in bulk, each conditional on the version it replaces, then the
// checkpoint: no transaction is needed (or a replica set), because a replay after a crash
// between the two finds every document already at its version and changes nothing.
//
// Search: plain MongoDB's $text cannot match a prefix, which search-as-you-type needs, so each
// product carries `tokens` (its words, as the query is split) under a multikey index. A query
// takes the products holding every term, the last as the start of a word (an anchored, escaped
// regex, which uses the index), and ranks the newest SEARCH_CANDIDATES of them with rankByRelevance(), as
// the SQLite adapter does (which also ranks the newest name matches). The words of names are kept
// as a set per generation (products_name_terms) for completions and typos; a store built before
// that set existed completes and corrects nothing until `npm run rebuild`.
import { MongoBulkWriteError, MongoClient, MongoServerError, type AnyBulkWriteOperation, type Db, type Document } from 'mongodb';
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
import { oneEditAway, planQuery, rankByRelevance, SEARCH_CANDIDATES, searchTerms, type Vocabulary } from './search-terms.ts';
import { words } from '@eventide/kernel/search/words.ts';

const DUPLICATE_KEY = 11000;
const VOCABULARY_CANDIDATES = 20;
const VOCABULARY_COUNT_CAP = 1000;

interface StoredDocument extends Document {
  _id: string;
  version: number;
  seq: number;
  deleted: boolean;
  // What the projector wrote: one of the collections' states (ReadFields), as BSON gives it back.
  // biome-ignore lint/suspicious/noExplicitAny: the driver's documents are untyped; toDocument names the collection
  fields: any;
  tokens?: string[];
  /** The words of the name alone: what the vocabulary counts. */
  nameTokens?: string[];
}

const name = (collection: string, generation: number) => `${collection}_g${generation}`;

/** A stored document as a document of its collection: its fields are what the projector wrote. */
function toDocument<C extends Collection = Collection>(stored: StoredDocument): ReadDocument<C> {
  return { id: stored._id, version: stored.version, seq: stored.seq, deleted: stored.deleted, fields: stored.fields };
}

function toStored(write: DocumentWrite): StoredDocument {
  const { doc } = write;
  const stored: StoredDocument = { _id: doc.id, version: doc.version, seq: doc.seq, deleted: doc.deleted, fields: doc.fields };
  if (write.collection === 'products') {
    const { name, description } = write.doc.fields;
    stored.tokens = [...new Set(words(`${name} ${description}`))];
    stored.nameTokens = [...new Set(words(name))];
  }
  return stored;
}

function onlyDuplicateKeys(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return false;
  const errors = ([] as Array<{ code?: number }>).concat(error.writeErrors as never);
  return errors.length > 0 && errors.every((e) => e.code === DUPLICATE_KEY);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Case-insensitive comparison for userByEmail; the index is built with the same collation. */
const EMAIL_COLLATION = { locale: 'en', strength: 2 } as const;

async function ensureGeneration(db: Db, generation: number): Promise<void> {
  for (const collection of COLLECTIONS) {
    const c = db.collection<StoredDocument>(name(collection, generation));
    await c.createIndex({ seq: 1 }, { unique: true });
    await c.createIndex({ deleted: 1, seq: -1 });
    for (const field of FILTERABLE[collection]) await c.createIndex({ [`fields.${field}`]: 1, deleted: 1, seq: -1 });
    if (collection === 'products') {
      await c.createIndex({ tokens: 1 });
      await c.createIndex({ nameTokens: 1 });
    }
    if (collection === 'users') await c.createIndex({ 'fields.email': 1 }, { collation: EMAIL_COLLATION });
  }
}

export async function openMongoReadStore(url: string): Promise<ReadStore> {
  const client = new MongoClient(url);
  await client.connect();
  const db = client.db();
  const meta = db.collection<{ _id: string; value: number }>('read_meta');
  await meta.updateOne({ _id: 'active_generation' }, { $setOnInsert: { value: 1 } }, { upsert: true });
  await meta.updateOne({ _id: 'last_generation' }, { $setOnInsert: { value: 1 } }, { upsert: true });
  const readMeta = async (key: string) => (await meta.findOne({ _id: key }))!.value;
  await ensureGeneration(db, await readMeta('active_generation'));

  const documents = (collection: string, generation: number) => db.collection<StoredDocument>(name(collection, generation));
  const checkpoints = (generation: number) => db.collection<{ _id: string; position: number }>(name('checkpoints', generation));
  const nameTerms = (generation: number) => db.collection<{ _id: string }>(name('products_name_terms', generation));

  /**
   * The words of product names, most frequent first. Counting stops at VOCABULARY_COUNT_CAP per
   * word and looks at VOCABULARY_CANDIDATES words at most, so a lookup's cost is bounded.
   */
  function vocabularyOf(generation: number): Vocabulary {
    const products = documents('products', generation);
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
        const found = await nameTerms(generation)
          .find({ _id: { $gte: prefix, $lt: `${prefix}\u{10FFFF}` } })
          .limit(VOCABULARY_CANDIDATES)
          .toArray();
        return ranked(
          found.map((t) => t._id),
          limit,
        );
      },
      async typosOf(word, limit) {
        const found = await nameTerms(generation)
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

  async function checkpointOf(generation: number, name: string): Promise<number> {
    return (await checkpoints(generation).findOne({ _id: name }))?.position ?? 0;
  }

  function writer(generation: number): ReadModelWriter {
    return {
      generation,
      async getMany<C extends Collection>(collection: C, ids: string[]) {
        const found = await documents(collection, generation)
          .find({ _id: { $in: [...new Set(ids)] } })
          .toArray();
        return new Map(found.map((stored) => [stored._id, toDocument<C>(stored)]));
      },
      async write(writes, checkpoint) {
        for (const collection of COLLECTIONS) {
          const operations: AnyBulkWriteOperation<StoredDocument>[] = writes
            .filter((w) => w.collection === collection)
            .map((w) =>
              w.expectedVersion === null
                ? { insertOne: { document: toStored(w) } }
                : { replaceOne: { filter: { _id: w.doc.id, version: w.expectedVersion }, replacement: toStored(w) } },
            );
          if (operations.length === 0) continue;
          try {
            await documents(collection, generation).bulkWrite(operations, { ordered: false });
          } catch (error) {
            // An insert of a document that exists already is a replay: skip it, as the contract says.
            if (!onlyDuplicateKeys(error)) throw error;
          }
        }
        const nameWords = new Set(writes.flatMap((w) => (w.collection === 'products' && !w.doc.deleted ? words(w.doc.fields.name) : [])));
        if (nameWords.size > 0) {
          // A set of words, not counts: writing it twice (a replay) changes nothing. How many live
          // names hold a word is counted when it is looked up (vocabularyOf).
          await nameTerms(generation).bulkWrite(
            [...nameWords].map((term) => ({ updateOne: { filter: { _id: term }, update: { $setOnInsert: { _id: term } }, upsert: true } })),
            { ordered: false },
          );
        }
        await checkpoints(generation).updateOne({ _id: checkpoint.name }, { $max: { position: checkpoint.position } }, { upsert: true });
      },
      checkpoint: (checkpointName) => checkpointOf(generation, checkpointName),
    };
  }

  return {
    activeGeneration: () => readMeta('active_generation'),

    async servedCheckpoint(name) {
      return checkpointOf(await readMeta('active_generation'), name);
    },

    async createGeneration() {
      const updated = await meta.findOneAndUpdate({ _id: 'last_generation' }, { $inc: { value: 1 } }, { returnDocument: 'after' });
      const generation = updated!.value;
      await ensureGeneration(db, generation);
      return generation;
    },

    async promote(generation) {
      const previous = await readMeta('active_generation');
      if (previous === generation) return true;
      // Two operations here, not one transaction as in SQLite: a batch the projector writes to the
      // old generation between the comparison and the swap can still be taken back (one round trip).
      if ((await checkpointOf(generation, READ_MODELS_CHECKPOINT)) < (await checkpointOf(previous, READ_MODELS_CHECKPOINT))) return false;
      // Only from the generation compared: another promotion meanwhile wins.
      const swapped = await meta.updateOne({ _id: 'active_generation', value: previous }, { $set: { value: generation } });
      if (swapped.modifiedCount === 0) return false;
      for (const collection of [...COLLECTIONS, 'checkpoints', 'products_name_terms']) {
        await db
          .collection(name(collection, previous))
          .drop()
          .catch((error: unknown) => {
            if (!(error instanceof MongoServerError && error.codeName === 'NamespaceNotFound')) throw error;
          });
      }
      return true;
    },

    writer,

    async loadCheckpoint(checkpointName) {
      return (
        (await db.collection<{ _id: string; position: number }>('follower_checkpoints').findOne({ _id: checkpointName }))?.position ?? 0
      );
    },

    async saveCheckpoint(checkpointName, position) {
      await db
        .collection<{ _id: string; position: number }>('follower_checkpoints')
        .updateOne({ _id: checkpointName }, { $max: { position } }, { upsert: true });
    },

    async get<C extends Collection>(collection: C, id: string) {
      const stored = await documents(collection, await readMeta('active_generation')).findOne({ _id: id });
      return stored ? toDocument<C>(stored) : undefined;
    },

    async userByEmail(email) {
      const stored = await documents('users', await readMeta('active_generation')).findOne(
        { 'fields.email': String(email).trim(), deleted: false },
        { collation: EMAIL_COLLATION },
      );
      return stored ? toDocument<'users'>(stored) : undefined;
    },

    async list<C extends Collection>(collection: C, query: ListQuery) {
      const filter: Document = { deleted: false };
      for (const [field, value] of Object.entries(query.filter ?? {})) {
        if (!FILTERABLE[collection].includes(field)) throw new TypeError(`${collection} cannot be filtered by ${field}`);
        // A string, never an object: values arrive already validated, this keeps operators out regardless.
        filter[`fields.${field}`] = String(value);
      }
      const c = documents(collection, await readMeta('active_generation'));
      if ('beforeSeq' in query) {
        const below = query.beforeSeq === null ? {} : { seq: { $lt: query.beforeSeq } };
        const items = await c
          .find({ ...filter, ...below })
          .sort({ seq: -1 })
          .limit(query.limit)
          .toArray();
        return { items: items.map((stored) => toDocument<C>(stored)) };
      }
      const [items, total] = await Promise.all([
        c.find(filter).sort({ seq: -1 }).skip(query.offset).limit(query.limit).toArray(),
        c.countDocuments(filter),
      ]);
      return { items: items.map((stored) => toDocument<C>(stored)), total };
    },

    async search(text, limit) {
      if (searchTerms(text).length === 0) return [];
      const generation = await readMeta('active_generation');
      const query = await planQuery(text, vocabularyOf(generation));
      if (query.some((word) => word.standsForNothing)) return [];
      const candidates = await documents('products', generation)
        .find({
          deleted: false,
          $and: query.map(({ term, prefix, completions, typos }) => ({
            $or: [{ tokens: prefix ? { $regex: `^${escapeRegex(term)}` } : term }, { tokens: { $in: [...completions, ...typos] } }],
          })),
        })
        .sort({ seq: -1 })
        .limit(SEARCH_CANDIDATES)
        .toArray();
      return rankByRelevance(
        candidates.map((stored) => toDocument<'products'>(stored)),
        query,
        limit,
      );
    },

    async close() {
      await client.close();
    },
  };
}

/** Drops the database a URL names: for test suites that made one of their own. */
export async function dropMongoDatabase(url: string): Promise<void> {
  const client = new MongoClient(url);
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}
