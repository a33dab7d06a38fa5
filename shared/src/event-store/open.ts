// Chooses the event store adapter from configuration: EventStoreDB when its URL is set,
// otherwise the embedded SQLite file under the data directory. Either way the personal fields of
// what it holds are sealed under keys kept in the key store (shared/src/personal-data), which it
// opens beside it and closes with it.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openKeyStore } from '../key-store/open.ts';
import type { KeyStore } from '../key-store/port.ts';
import { sealingEventStore } from '../personal-data/event-store.ts';
import { openEventStoreDb } from './eventstoredb.ts';
import type { EventStore } from './port.ts';
import { openSqliteEventStore } from './sqlite.ts';

export interface OpenedEventStore {
  /** Personal fields sealed on append, opened on read. */
  store: EventStore;
  /** Where the keys are: forgetting a person is `keys.forget(userId)`. */
  keys: KeyStore;
  description: string;
}

export async function openEventStore(config: Config): Promise<OpenedEventStore> {
  const keys = await openKeyStore(config);
  const { store, description } = openAdapter(config);
  const sealing = sealingEventStore(store, keys.store);
  return {
    store: {
      ...sealing,
      async close() {
        await sealing.close();
        await keys.store.close();
      },
    },
    keys: keys.store,
    description: `${description}; keys in ${keys.description}`,
  };
}

function openAdapter(config: Config): { store: EventStore; description: string } {
  if (config.EVENTSTORE_URL) {
    return { store: openEventStoreDb(config.EVENTSTORE_URL), description: 'EventStoreDB' };
  }
  const path = join(config.dataDir, 'events.db');
  return { store: openSqliteEventStore({ path, synchronous: config.SQLITE_SYNCHRONOUS }), description: `SQLite at ${path}` };
}
