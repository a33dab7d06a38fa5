// The read store's and product search's contracts on a real PostgreSQL (a throwaway cluster), a
// database of its own for each test, opened as the services open them (read-models/open.ts).
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { openPostgresReadModels } from '../read-models/open.ts';
import { productSearchContract } from '../product-search/contract.ts';
import { readStoreContract } from './contract.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

async function open() {
  server ??= startPostgres();
  const { store, search } = await openPostgresReadModels(await (await server).database());
  return { store, search, dispose: () => store.close() };
}

if (unavailable) {
  console.warn(`SKIPPED: the read store's and product search's contracts on PostgreSQL: ${unavailable}`);
  describe('ReadStore and ProductSearch contracts: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  readStoreContract('PostgreSQL', open);
  productSearchContract('PostgreSQL', open);
}
