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
import type { Upcasters } from '@eventide/kernel/events/versions.ts';

export interface OpenedEventStore {
  /** Personal fields sealed on append, opened on read; events marked with their version on append, upcast on read. */
  store: EventStore;
  /** Where the keys are: forgetting a person is `keys.forget(userId)`. */
  keys: KeyStore;
  description: string;
}

/** `upcasters`: what the release knows of each event's versions; this one's unless a test plays another release. */
export async function openEventStore(config: Config, { upcasters }: { upcasters?: Upcasters } = {}): Promise<OpenedEventStore> {
  const keys = await openKeyStore(config);
  const { store, description } = await openEventStoreAdapter(config);
  // Upcast above the sealing: an upcaster sees personal fields opened (or sealed, on the
  // publisher's subscription) and passes them through.
  const versioned = versionedEventStore(sealingEventStore(store, keys.store), upcasters);
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
