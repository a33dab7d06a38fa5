// The key store's contract on a real PostgreSQL (a throwaway cluster), a database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { keyStoreContract } from './contract.ts';
import { openPostgresKeyStore } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

if (unavailable) {
  console.warn(`SKIPPED: the key store's contract on PostgreSQL: ${unavailable}`);
  describe('KeyStore contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  keyStoreContract('PostgreSQL', async () => {
    server ??= startPostgres();
    const url = await (await server).database();
    return { open: () => openPostgresKeyStore(url), dispose: async () => undefined };
  });
}
