// Chooses where documents live: MongoDB (sharedb-mongo, milestones in sharedb-milestone-mongo)
// when MONGO_URL is set, otherwise the embedded SQLite file DATA_DIR/collab.db.
import { join } from 'node:path';
import type ShareDB from 'sharedb';
import type { Config } from '@eventide/shared/config.ts';
import { SqliteShareDb } from './sqlite-db.ts';
import { SqliteMilestoneDb } from './sqlite-milestones.ts';
import { ACCESS_COLLECTION, type MemberIndex, type Membership } from './members.ts';

export interface CollabStore {
  db: ShareDB.DB;
  milestoneDb: ShareDB.MilestoneDB;
  members: MemberIndex;
  description: string;
}

export async function openCollabStore(config: Pick<Config, 'MONGO_URL' | 'dataDir' | 'SQLITE_SYNCHRONOUS'>): Promise<CollabStore> {
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { default: ShareDbMongo } = await import('sharedb-mongo');
    const { default: MongoMilestoneDb } = await import('sharedb-milestone-mongo');
    const db = ShareDbMongo(config.MONGO_URL);
    const records = await new Promise<import('mongodb').Collection>((resolve, reject) =>
      db.getDbs((error, mongo) => (error ? reject(error) : resolve(mongo.collection(ACCESS_COLLECTION)))),
    );
    // sharedb-mongo keeps a record's fields at the top level of its document, and _type null once deleted.
    await records.createIndex({ owner: 1 });
    await records.createIndex({ editors: 1 });
    const members: MemberIndex = {
      async documentsOf(userId, limit) {
        const found = await records
          .find({ _type: { $ne: null }, $or: [{ owner: userId }, { editors: userId }] }, { projection: { _id: 1, owner: 1 } })
          .limit(limit)
          .toArray();
        return found.map((doc): Membership => ({ id: String(doc._id), role: doc.owner === userId ? 'owner' : 'editor' }));
      },
    };
    return { db, milestoneDb: new MongoMilestoneDb(config.MONGO_URL), members, description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'collab.db');
  const db = new SqliteShareDb(path, config.SQLITE_SYNCHRONOUS);
  return { db, milestoneDb: new SqliteMilestoneDb(db.db), members: db, description: `SQLite at ${path}` };
}
