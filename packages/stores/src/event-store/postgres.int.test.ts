// The event store's contracts on a real PostgreSQL (Debian's binaries, a throwaway cluster), a
// database of its own for each test.
import { afterAll, describe, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { eventStoreContract, type EventStoreHarness } from './contract.ts';
import { globalIdsContract } from './global-ids.contract.ts';
import { longestStreamsContract } from './longest-streams.contract.ts';
import { openPostgresEventStore } from './postgres.ts';
import type { EventStore } from './port.ts';

const unavailable = postgresUnavailable();
let server: Promise<TestPostgres> | undefined;
afterAll(async () => (await server)?.remove());

async function harness(): Promise<EventStoreHarness> {
  server ??= startPostgres();
  const url = await (await server).database();
  let store: EventStore = await openPostgresEventStore({ url });
  return {
    allOrNone: true,
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = await openPostgresEventStore({ url });
      return store;
    },
    dispose: () => store.close(),
  };
}

if (unavailable) {
  console.warn(`SKIPPED: the event store's contracts on PostgreSQL: ${unavailable}`);
  describe('EventStore contract: PostgreSQL', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  eventStoreContract('PostgreSQL', harness);
  longestStreamsContract('PostgreSQL', harness);
  globalIdsContract('PostgreSQL', harness);
}
