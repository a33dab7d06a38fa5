// The event store's contracts on a real PostgreSQL (Debian's binaries, a throwaway cluster), a
// database of its own for each test.
import { afterAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { event, eventStoreContract, stream } from './contract.ts';
import type { EventStoreHarness } from './contract-harness.ts';
import { globalIdsContract } from './global-ids.contract.ts';
import { longestStreamsContract } from './longest-streams.contract.ts';
import { typesSubscriptionContract } from './types-subscription.contract.ts';
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
  typesSubscriptionContract('PostgreSQL', harness);
  longestStreamsContract('PostgreSQL', harness);
  globalIdsContract('PostgreSQL', harness);

  describe('the event store on PostgreSQL, beyond the contracts', () => {
    it('writes more appends than one batch takes, sent in one turn, each once and in order', async () => {
      const { store, dispose } = await harness();
      try {
        const streams = Array.from({ length: 600 }, () => stream());
        const results = await Promise.all(streams.map((s) => store.append(s, [event()], { expectedRevision: 'no_stream' })));
        const positions = results.map((r) => r.position);
        expect(new Set(positions).size).toBe(streams.length);
        // Sent in this order, batched in this order: positions follow it.
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect((await store.readAll({ limit: 1000 })).map((e) => e.streamId)).toEqual(streams);
      } finally {
        await dispose();
      }
    });
  });
}
