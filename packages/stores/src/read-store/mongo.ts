// MongoDB read store (the mongodb driver). Fit for production: many query processes, one
// projector. Indexes are created at start-up.
//
// Documents are written unordered in bulk, each conditional on the version it replaces, then the
// checkpoint: no transaction is needed (or a replica set), because a replay after a crash
// between the two finds every document already at its version and changes nothing.
//
// The indexes it is given (product search, product-search/mongo.ts) store their fields on the
// documents of the collection they follow, in the same writes (mongo-indexes.ts).
import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection as MongoCollection,
  type Db,
  type Document,
} from 'mongodb';
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
import type { MongoReadModelIndex } from './mongo-indexes.ts';
import { keyValue, listKeysOf, sortsOf } from './list-keys.ts';
import { mongoListOf } from './mongo-list.ts';

const DUPLICATE_KEY = 11000;

/** A document as it is stored: the store's fields, and those its indexes add. */
export interface StoredDocument extends Document {
  _id: string;
  version: number;
  seq: number;
  deleted: boolean;
  // What the projector wrote: one of the collections' states (ReadFields), as BSON gives it back.
  // biome-ignore lint/suspicious/noExplicitAny: the driver's documents are untyped; toDocument names the collection
  fields: any;
}

export const name = (collection: string, generation: number) => `${collection}_g${generation}`;

/** A stored document as a document of its collection: its fields are what the projector wrote. */
export function toDocument<C extends Collection = Collection>(stored: StoredDocument): ReadDocument<C> {
  return { id: stored._id, version: stored.version, seq: stored.seq, deleted: stored.deleted, fields: stored.fields };
}

function toStored(write: DocumentWrite, indexes: readonly MongoReadModelIndex[]): StoredDocument {
  const { doc } = write;
  const stored: StoredDocument = { _id: doc.id, version: doc.version, seq: doc.seq, deleted: doc.deleted, fields: doc.fields };
  const keys = Object.entries(listKeysOf(write.collection));
  if (keys.length > 0) stored.keys = Object.fromEntries(keys.map(([key, declared]) => [key, keyValue(declared, doc.fields)]));
  for (const index of indexes) if (index.collection === write.collection) Object.assign(stored, index.fieldsOf(write));
  return stored;
}

function onlyDuplicateKeys(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return false;
  const errors = ([] as Array<{ code?: number }>).concat(error.writeErrors as never);
  return errors.length > 0 && errors.every((e) => e.code === DUPLICATE_KEY);
}

/** Case-insensitive comparison for userByEmail; the index is built with the same collation. */
const EMAIL_COLLATION = { locale: 'en', strength: 2 } as const;

async function ensureGeneration(db: Db, generation: number, indexes: readonly MongoReadModelIndex[]): Promise<void> {
  for (const collection of COLLECTIONS) {
    const c = db.collection<StoredDocument>(name(collection, generation));
    await c.createIndex({ seq: 1 }, { unique: true });
    await c.createIndex({ deleted: 1, seq: -1 });
    for (const field of FILTERABLE[collection]) await c.createIndex({ [`fields.${field}`]: 1, deleted: 1, seq: -1 });
    if (collection === 'users') await c.createIndex({ 'fields.email': 1 }, { collation: EMAIL_COLLATION });
    // An index per sort, alone and after each filter, so that every order pages by a range of one.
    for (const names of Object.values(sortsOf(collection))) {
      const sorted = { ...Object.fromEntries(names.map((key) => [`keys.${key}`, 1])), seq: 1 };
      await c.createIndex({ deleted: 1, ...sorted });
      for (const field of FILTERABLE[collection]) await c.createIndex({ [`fields.${field}`]: 1, deleted: 1, ...sorted });
    }
    await addKeys(c, collection);
  }
  for (const index of indexes) await index.ensure(db, generation);
}

/**
 * Writes the list keys on the documents an older version stored without them, once, in batches;
 * each write is conditional on the version read, so one a projector replaced meanwhile is left as
 * it wrote it (with its keys).
 */
async function addKeys(c: MongoCollection<StoredDocument>, collection: Collection): Promise<void> {
  const keys = Object.entries(listKeysOf(collection));
  if (keys.length === 0) return;
  let batch: AnyBulkWriteOperation<StoredDocument>[] = [];
  const flush = async () => {
    if (batch.length > 0) await c.bulkWrite(batch, { ordered: false });
    batch = [];
  };
  for await (const stored of c.find({ keys: { $exists: false } }, { projection: { version: 1, fields: 1 } })) {
    const values = Object.fromEntries(keys.map(([key, declared]) => [key, keyValue(declared, stored.fields)]));
    batch.push({ updateOne: { filter: { _id: stored._id, version: stored.version }, update: { $set: { keys: values } } } });
    if (batch.length >= 1000) await flush();
  }
  await flush();
}

/** The MongoDB read store, and a way for its indexes' readers (product search) to read the generation it serves. */
export interface MongoReadStore extends ReadStore {
  /** Runs a read on the generation served, with its collection of `collection`'s documents. */
  readActive<T>(
    read: (documents: (collection: Collection) => MongoCollection<StoredDocument>, db: Db, generation: number) => Promise<T>,
  ): Promise<T>;
}

/** `indexes`: what it keeps beside the documents, in their writes (product-search/mongo.ts). */
export async function openMongoReadStore(url: string, indexes: readonly MongoReadModelIndex[] = []): Promise<MongoReadStore> {
  const client = new MongoClient(url);
  await client.connect();
  const db = client.db();
  const meta = db.collection<{ _id: string; value: number }>('read_meta');
  await meta.updateOne({ _id: 'active_generation' }, { $setOnInsert: { value: 1 } }, { upsert: true });
  await meta.updateOne({ _id: 'last_generation' }, { $setOnInsert: { value: 1 } }, { upsert: true });
  const readMeta = async (key: string) => (await meta.findOne({ _id: key }))!.value;
  await ensureGeneration(db, await readMeta('active_generation'), indexes);

  const documents = (collection: string, generation: number) => db.collection<StoredDocument>(name(collection, generation));
  const checkpoints = (generation: number) => db.collection<{ _id: string; position: number }>(name('checkpoints', generation));
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
                ? { insertOne: { document: toStored(w, indexes) } }
                : { replaceOne: { filter: { _id: w.doc.id, version: w.expectedVersion }, replacement: toStored(w, indexes) } },
            );
          if (operations.length === 0) continue;
          try {
            await documents(collection, generation).bulkWrite(operations, { ordered: false });
          } catch (error) {
            // An insert of a document that exists already is a replay: skip it, as the contract says.
            if (!onlyDuplicateKeys(error)) throw error;
          }
        }
        for (const index of indexes) await index.afterWrite(db, generation, writes);
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
      await ensureGeneration(db, generation, indexes);
      return generation;
    },

    async pendingGeneration() {
      const [last, served] = [await readMeta('last_generation'), await readMeta('active_generation')];
      return last > served ? last : undefined;
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
      for (const collection of [...COLLECTIONS, 'checkpoints', ...indexes.flatMap((index) => index.collections)]) {
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
      const { conditions, sort } = mongoListOf(collection, query);
      const found = c.find(conditions.length === 0 ? filter : { $and: [filter, ...conditions] }).sort(sort);
      if (!('offset' in query)) {
        const items = await found.limit(query.limit).toArray();
        return { items: items.map((stored) => toDocument<C>(stored)) };
      }
      const [items, total] = await Promise.all([found.skip(query.offset).limit(query.limit).toArray(), c.countDocuments(filter)]);
      return { items: items.map((stored) => toDocument<C>(stored)), total };
    },

    async readActive(read) {
      const generation = await readMeta('active_generation');
      return read((collection) => documents(collection, generation), db, generation);
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
