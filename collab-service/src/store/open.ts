// Chooses where documents live: PostgreSQL when DATABASE_URL is set (postgres-db.ts), MongoDB
// (sharedb-mongo, milestones in sharedb-milestone-mongo) when MONGO_URL is, otherwise the embedded
// SQLite file DATA_DIR/collab.db.
import { join } from 'node:path';
import type ShareDB from 'sharedb';
import type { Config } from '@eventide/kernel/config.ts';
import { SqliteShareDb } from './sqlite-db.ts';
import { SqliteMilestoneDb } from './sqlite-milestones.ts';
import { sqliteHistory } from './sqlite-history.ts';
import { mongoHistory } from './mongo-history.ts';
import type { HistoryStore } from './history.ts';
import { ACCESS_COLLECTION, DOCUMENTS_COLLECTION, type MemberIndex, type Membership } from './members.ts';

export interface CollabStore {
  db: ShareDB.DB;
  milestoneDb: ShareDB.MilestoneDB;
  members: MemberIndex;
  /** Where each document's kept history is trimmed (sharedb/history.ts). */
  history: HistoryStore;
  description: string;
}

export async function openCollabStore(
  config: Pick<Config, 'DATABASE_URL' | 'MONGO_URL' | 'dataDir' | 'SQLITE_SYNCHRONOUS'>,
): Promise<CollabStore> {
  if (config.DATABASE_URL) {
    // Loaded only here, so the embedded default never loads the PostgreSQL driver.
    const { PostgresShareDb } = await import('./postgres-db.ts');
    const { PostgresMilestoneDb } = await import('./postgres-milestones.ts');
    const { postgresHistory } = await import('./postgres-history.ts');
    const db = await PostgresShareDb.open(config.DATABASE_URL);
    return { db, milestoneDb: new PostgresMilestoneDb(db.sql), members: db, history: postgresHistory(db), description: 'PostgreSQL' };
  }
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { default: ShareDbMongo } = await import('sharedb-mongo');
    const { default: MongoMilestoneDb } = await import('sharedb-milestone-mongo');
    const db = ShareDbMongo(config.MONGO_URL);
    const mongo = await new Promise<import('mongodb').Db>((resolve, reject) =>
      db.getDbs((error, opened) => (error ? reject(error) : resolve(opened))),
    );
    const records = mongo.collection<{ _id: string; owner?: string }>(ACCESS_COLLECTION);
    // sharedb-mongo keeps each snapshot's metadata under _m.
    const documents = mongo.collection<{ _id: string }>(DOCUMENTS_COLLECTION);
    // sharedb-mongo keeps a record's fields at the top level of its document, and _type null once deleted.
    await records.createIndex({ owner: 1 });
    await records.createIndex({ editors: 1 });
    await records.createIndex({ viewers: 1 });
    const live = { _type: { $ne: null } };
    const members: MemberIndex = {
      async ownedCount(userId) {
        const owned = await records.find({ ...live, owner: userId }, { projection: { _id: 1 } }).toArray();
        // A deleted document keeps its record and its snapshot, typeless, past version 0.
        const deleted = await documents.countDocuments({ _id: { $in: owned.map((doc) => doc._id) }, _type: null, _v: { $gt: 0 } });
        return owned.length - deleted;
      },
      async charactersOwnedBy(userId) {
        const owned = await records.find({ ...live, owner: userId }, { projection: { _id: 1 } }).toArray();
        const [sum] = await documents
          .aggregate<{ n: number }>([
            { $match: { ...live, _id: { $in: owned.map((doc) => doc._id) } } },
            { $group: { _id: null, n: { $sum: { $ifNull: ['$_m.characters', 0] } } } },
          ])
          .toArray();
        return sum?.n ?? 0;
      },
      async documentsOf(userId, limit) {
        const found = await records
          .find(
            { _type: { $ne: null }, $or: [{ owner: userId }, { editors: userId }, { viewers: userId }] },
            { projection: { _id: 1, owner: 1, editors: 1 } },
          )
          .limit(limit)
          .toArray();
        return found.map(
          (doc): Membership => ({
            id: String(doc._id),
            role: doc.owner === userId ? 'owner' : (doc as { editors?: string[] }).editors?.includes(userId) ? 'editor' : 'viewer',
          }),
        );
      },
    };
    return { db, milestoneDb: new MongoMilestoneDb(config.MONGO_URL), members, history: mongoHistory(mongo), description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'collab.db');
  const db = new SqliteShareDb(path, config.SQLITE_SYNCHRONOUS);
  return { db, milestoneDb: new SqliteMilestoneDb(db.db), members: db, history: sqliteHistory(db.db), description: `SQLite at ${path}` };
}
