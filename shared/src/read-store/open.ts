// Chooses the read store adapter from configuration: MongoDB when its URL is set, otherwise the
// embedded SQLite file under the data directory.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openMongoReadStore } from './mongo.ts';
import type { ReadStore } from './port.ts';
import { openSqliteReadStore } from './sqlite.ts';

export async function openReadStore(config: Config): Promise<{ store: ReadStore; description: string }> {
  if (config.MONGO_URL) return { store: await openMongoReadStore(config.MONGO_URL), description: 'MongoDB' };
  const path = join(config.dataDir, 'read.db');
  return { store: openSqliteReadStore(path), description: `SQLite at ${path}` };
}
