// Chooses the key store adapter from configuration: PostgreSQL or MongoDB when its URL is set (the
// first when both are), otherwise the embedded SQLite file `keys.db` under the data directory
// (never inside the event store).
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { KeyStore } from './port.ts';
import { openSqliteKeyStore } from './sqlite.ts';

export async function openKeyStore(config: Config): Promise<{ store: KeyStore; description: string }> {
  if (config.DATABASE_URL) {
    // Loaded only here: the embedded default never loads the PostgreSQL client.
    const { openPostgresKeyStore } = await import('./postgres.ts');
    return { store: await openPostgresKeyStore(config.DATABASE_URL), description: 'PostgreSQL (its own tables)' };
  }
  if (config.MONGO_URL) {
    // Loaded only here: the driver alone holds a 17 MB serialisation buffer (bson) from the moment it loads.
    const { MongoClient } = await import('mongodb');
    const { openMongoKeyStore } = await import('./mongo.ts');
    const client = new MongoClient(config.MONGO_URL);
    await client.connect();
    const store = await openMongoKeyStore(client);
    return { store: { ...store, close: () => client.close() }, description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'keys.db');
  return { store: openSqliteKeyStore(path), description: `SQLite at ${path}` };
}
