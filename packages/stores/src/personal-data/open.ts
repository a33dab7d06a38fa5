// The event store the services use: the adapter configuration chooses (event-store/open.ts), with
// the personal fields of what it holds sealed under keys kept in the key store, which it opens
// beside it and closes with it (docs/privacy.md), and its events read as their current versions
// (event-store/versioned.ts).
import type { Config } from '@eventide/kernel/config.ts';
import { openEventStoreAdapter } from '../event-store/open.ts';
import type { EventStore } from '../event-store/port.ts';
import { openKeyStore } from '../key-store/open.ts';
import type { KeyStore } from '../key-store/port.ts';
import { sealingEventStore } from './event-store.ts';
import { versionedEventStore } from '../event-store/versioned.ts';

export interface OpenedEventStore {
  /** Personal fields sealed on append, opened on read; events marked with their version on append, upcast on read. */
  store: EventStore;
  /** Where the keys are: forgetting a person is `keys.forget(userId)`. */
  keys: KeyStore;
  description: string;
}

export async function openEventStore(config: Config): Promise<OpenedEventStore> {
  const keys = await openKeyStore(config);
  const { store, description } = await openEventStoreAdapter(config);
  // Upcast above the sealing: an upcaster sees personal fields opened (or sealed, on the
  // publisher's subscription) and passes them through.
  const versioned = versionedEventStore(sealingEventStore(store, keys.store));
  return {
    store: {
      ...versioned,
      async close() {
        await versioned.close();
        await keys.store.close();
      },
    },
    keys: keys.store,
    description: `${description}; keys in ${keys.description}`,
  };
}
