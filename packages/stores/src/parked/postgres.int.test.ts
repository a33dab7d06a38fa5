// The parked events' contract on a real PostgreSQL (a throwaway cluster), a database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { parkedEventsContract } from './contract.ts';
import { openPostgresParkedEvents } from './postgres.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

if (unavailable) {
  console.warn(`SKIPPED: the parked events' contract on PostgreSQL: ${unavailable}`);
  describe('ParkedEvents contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  parkedEventsContract('PostgreSQL', async () => {
    server ??= startPostgres();
    const parked = await openPostgresParkedEvents(await (await server).database());
    return { parked, dispose: () => parked.close() };
  });
}
