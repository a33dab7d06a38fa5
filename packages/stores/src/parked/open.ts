// Opens the followers' parked events where the read models are: on PostgreSQL when DATABASE_URL
// is set, on MongoDB when its URL is, otherwise in the embedded read models' file under the data directory.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { ParkedEvents } from './port.ts';
import { openSqliteParkedEvents } from './sqlite.ts';

export async function openParkedEvents(config: Config): Promise<{ store: ParkedEvents; description: string }> {
  if (config.DATABASE_URL) {
    const { openPostgresParkedEvents } = await import('./postgres.ts');
    return { store: await openPostgresParkedEvents(config.DATABASE_URL), description: 'PostgreSQL' };
  }
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { openMongoParkedEvents } = await import('./mongo.ts');
    return { store: await openMongoParkedEvents(config.MONGO_URL), description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'read.db');
  return { store: openSqliteParkedEvents(path), description: `SQLite at ${path}` };
}
