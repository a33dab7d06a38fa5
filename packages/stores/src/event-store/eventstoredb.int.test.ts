import { describe, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import { typesSubscriptionContract } from './types-subscription.contract.ts';
import { openEventStoreDb } from './eventstoredb.ts';

const url = process.env.EVENTSTORE_URL;

if (url) {
  const harness = async () => {
    const store = openEventStoreDb(url);
    return { store, allOrNone: false, dispose: () => store.close() };
  };
  eventStoreContract('EventStoreDB', harness);
  typesSubscriptionContract('EventStoreDB', harness);
} else {
  console.warn('SKIPPED: EventStore contract on EventStoreDB: set EVENTSTORE_URL (e.g. esdb://localhost:2113?tls=false) to run it');
  describe('EventStore contract: EventStoreDB', () => {
    it.skip('skipped: EVENTSTORE_URL is not set', () => {});
  });
}
