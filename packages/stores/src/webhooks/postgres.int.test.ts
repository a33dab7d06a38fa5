// The webhooks' contract on a real PostgreSQL (a throwaway cluster), a database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { webhookStoreContract } from './contract.ts';
import { openPostgresWebhookStore } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

if (unavailable) {
  console.warn(`SKIPPED: the webhooks' contract on PostgreSQL: ${unavailable}`);
  describe('WebhookStore contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  webhookStoreContract('PostgreSQL', async () => {
    server ??= startPostgres();
    const url = await (await server).database();
    const store = await openPostgresWebhookStore(url);
    return { store, another: () => openPostgresWebhookStore(url), dispose: () => store.close() };
  });
}
