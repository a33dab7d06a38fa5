// Opens the read models as the services use them: the documents (the read store) and product
// search kept in the same writes, on PostgreSQL when DATABASE_URL is set, on MongoDB when its URL
// is, otherwise in the embedded SQLite file under the data directory. Every process that writes
// the read models opens them here, so none writes products without their index.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { ProductSearch } from '../product-search/port.ts';
import type { PostgresSearchBounds } from '../product-search/postgres.ts';
import { type SearchBounds, sqliteProductSearch } from '../product-search/sqlite.ts';
import { sqliteProductIndex } from '../product-search/sqlite-index.ts';
import type { ReadStore } from '../read-store/port.ts';
import { openSqliteReadStore, type SqliteReadStore } from '../read-store/sqlite.ts';

export interface ReadModels {
  store: ReadStore;
  search: ProductSearch;
  description: string;
}

/** `bulkLoad`: the store will mostly be written, a whole data set at once (the seed); the embedded one tunes for it. */
export async function openReadModels(config: Config, options: { bulkLoad?: boolean } = {}): Promise<ReadModels> {
  if (config.DATABASE_URL) return { ...(await openPostgresReadModels(config.DATABASE_URL)), description: 'PostgreSQL' };
  if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { mongoProductIndex, mongoProductSearch } = await import('../product-search/mongo.ts');
    const { openMongoReadStore } = await import('../read-store/mongo.ts');
    const store = await openMongoReadStore(config.MONGO_URL, [mongoProductIndex]);
    return { store, search: mongoProductSearch(store), description: 'MongoDB' };
  }
  const path = join(config.dataDir, 'read.db');
  return { ...openSqliteReadModels(path, options), description: `SQLite at ${path}` };
}

/** The read models on the PostgreSQL database at `url`: the documents and product search. */
export async function openPostgresReadModels(
  url: string,
  options: { searchBounds?: PostgresSearchBounds } = {},
): Promise<{ store: ReadStore; search: ProductSearch }> {
  // Loaded only here, so the embedded default never loads the PostgreSQL driver.
  const { postgresProductIndex } = await import('../product-search/postgres-index.ts');
  const { postgresProductSearch } = await import('../product-search/postgres.ts');
  const { openPostgresReadStore } = await import('../read-store/postgres.ts');
  const store = await openPostgresReadStore(url, { indexes: [postgresProductIndex] });
  return { store, search: postgresProductSearch(store, options.searchBounds) };
}

/** The embedded read models in the file at `path` (':memory:' for none): the documents and product search. */
export function openSqliteReadModels(
  path: string,
  options: { bulkLoad?: boolean; searchBounds?: SearchBounds } = {},
): { store: SqliteReadStore; search: ProductSearch } {
  const store = openSqliteReadStore(path, { indexes: [sqliteProductIndex], bulkLoad: options.bulkLoad ?? false });
  return { store, search: sqliteProductSearch(store, options.searchBounds) };
}
