// Session store on MongoDB, shared by every process and node of a deployment. A TTL index
// removes expired records; reads also compare the expiry, since the TTL monitor runs only
// once a minute.
import { MongoClient, type Collection } from 'mongodb';
import type { SessionStore, StoredRecord } from './port.ts';

interface SessionDocument {
  _id: string;
  userId?: string | undefined;
  data: Record<string, unknown>;
  expiresAt: Date;
}

const toRecord = (doc: SessionDocument | null): StoredRecord | undefined =>
  doc ? { ...(doc.userId ? { userId: doc.userId } : {}), data: doc.data } : undefined;

export async function openMongoSessionStore(url: string): Promise<{ store: SessionStore; client: MongoClient }> {
  const client = new MongoClient(url);
  await client.connect();
  const sessions: Collection<SessionDocument> = client.db().collection('sessions');
  await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
  await sessions.createIndex({ userId: 1 }, { sparse: true });
  const live = (key: string) => ({ _id: key, expiresAt: { $gt: new Date() } });

  const store: SessionStore = {
    async get(key) {
      return toRecord(await sessions.findOne(live(key)));
    },
    async set(key, record, ttlMs) {
      const doc = { userId: record.userId, data: record.data, expiresAt: new Date(Date.now() + ttlMs) };
      await sessions.replaceOne({ _id: key }, doc, { upsert: true });
    },
    async destroy(key) {
      await sessions.deleteOne({ _id: key });
    },
    async take(key) {
      return toRecord(await sessions.findOneAndDelete(live(key)));
    },
    async destroyUser(userId) {
      return (await sessions.deleteMany({ userId })).deletedCount;
    },
    async close() {
      await client.close();
    },
  };
  return { store, client };
}
