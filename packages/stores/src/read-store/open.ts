// Chooses the read store adapter from configuration: MongoDB when its URL is set, otherwise the
// embedded SQLite file under the data directory.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import { openMongoReadStore } from './mongo.ts';
import type { ReadStore } from './port.ts';
import { openSqliteReadStore } from './sqlite.ts';

/** `bulkLoad`: the store will mostly be written, a whole data set at once (the seed); the embedded one tunes for it. */
export async function openReadStore(
  config: Config,
  options: { bulkLoad?: boolean } = {},
): Promise<{ store: ReadStore; description: string }> {
  if (config.MONGO_URL) return { store: await openMongoReadStore(config.MONGO_URL), description: 'MongoDB' };
  const path = join(config.dataDir, 'read.db');
  return { store: openSqliteReadStore(path, options), description: `SQLite at ${path}` };
}
