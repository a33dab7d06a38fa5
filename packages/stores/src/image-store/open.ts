// Opens the image store where the read models are: on PostgreSQL when DATABASE_URL is set, on
// MongoDB when its URL is, otherwise as files under the data directory.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { ImageStore } from './port.ts';
import { openFileImageStore } from './files.ts';

export async function openImageStore(config: Config): Promise<{ store: ImageStore; description: string }> {
  if (config.DATABASE_URL) {
    const { openPostgresImageStore } = await import('./postgres.ts');
    return { store: await openPostgresImageStore(config.DATABASE_URL), description: 'PostgreSQL' };
  }
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { openMongoImageStore } = await import('./mongo.ts');
    return { store: await openMongoImageStore(config.MONGO_URL), description: 'MongoDB GridFS' };
  }
  const directory = join(config.dataDir, 'images');
  return { store: openFileImageStore(directory), description: `files in ${directory}` };
}
