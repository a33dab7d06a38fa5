// The embedded read models as one object, for tests that write products and search them as
// before search had a port of its own: the store, with its search's `search()`.
import { openSqliteReadModels } from './open.ts';
import type { SearchBounds } from '../product-search/sqlite.ts';

export function searchableSqlite(path: string, options: { bulkLoad?: boolean; searchBounds?: SearchBounds } = {}) {
  const { store, search } = openSqliteReadModels(path, options);
  return Object.assign(store, { search: async (text: string, limit: number) => (await search.search(text, limit)).hits });
}
