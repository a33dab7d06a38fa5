// The image store's contract on a real PostgreSQL (a throwaway cluster), a database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { imageStoreContract } from './contract.ts';
import { openPostgresImageStore } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

if (unavailable) {
  console.warn(`SKIPPED: the image store's contract on PostgreSQL: ${unavailable}`);
  describe('ImageStore contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  imageStoreContract('PostgreSQL', async () => {
    server ??= startPostgres();
    const url = await (await server).database();
    const store = await openPostgresImageStore(url);
    return { store, another: () => openPostgresImageStore(url), dispose: () => store.close() };
  });
}
