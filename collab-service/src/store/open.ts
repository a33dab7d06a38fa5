// Chooses where documents live: MongoDB (sharedb-mongo, milestones in sharedb-milestone-mongo)
// when MONGO_URL is set, otherwise the embedded SQLite file DATA_DIR/collab.db.
import { join } from 'node:path';
import type ShareDB from 'sharedb';
import type { Config } from '@eventide/shared/config.ts';
import { SqliteShareDb } from './sqlite-db.ts';
import { SqliteMilestoneDb } from './sqlite-milestones.ts';

export interface CollabStore {
  db: ShareDB.DB;
  milestoneDb: ShareDB.MilestoneDB;
  description: string;
}

export async function openCollabStore(config: Pick<Config, 'MONGO_URL' | 'dataDir' | 'SQLITE_SYNCHRONOUS'>): Promise<CollabStore> {
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { default: ShareDbMongo } = await import('sharedb-mongo');
    const { default: MongoMilestoneDb } = await import('sharedb-milestone-mongo');
    return { db: ShareDbMongo(config.MONGO_URL), milestoneDb: new MongoMilestoneDb(config.MONGO_URL), description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'collab.db');
  const db = new SqliteShareDb(path, config.SQLITE_SYNCHRONOUS);
  return { db, milestoneDb: new SqliteMilestoneDb(db.db), description: `SQLite at ${path}` };
}
