// Opens the deadline schedule where the read models are: on PostgreSQL when DATABASE_URL is set,
// on MongoDB when its URL is, otherwise in the embedded read models' file under the data directory.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { DeadlineSchedule } from './port.ts';
import { openSqliteDeadlineSchedule } from './sqlite.ts';

export async function openDeadlineSchedule(config: Config): Promise<{ store: DeadlineSchedule; description: string }> {
  if (config.DATABASE_URL) {
    const { openPostgresDeadlineSchedule } = await import('./postgres.ts');
    return { store: await openPostgresDeadlineSchedule(config.DATABASE_URL), description: 'PostgreSQL' };
  }
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { openMongoDeadlineSchedule } = await import('./mongo.ts');
    return { store: await openMongoDeadlineSchedule(config.MONGO_URL), description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'read.db');
  return { store: openSqliteDeadlineSchedule(path), description: `SQLite at ${path}` };
}
