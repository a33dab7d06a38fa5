// Chooses the event store adapter from configuration: EventStoreDB when its URL is set,
// otherwise the embedded SQLite file under the data directory. What the services open is this
// with the personal fields sealed (personal-data/open.ts).
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import { openEventStoreDb } from './eventstoredb.ts';
import type { EventStore } from './port.ts';
import { openSqliteEventStore } from './sqlite.ts';

export function openEventStoreAdapter(config: Config): { store: EventStore; description: string } {
  if (config.EVENTSTORE_URL) {
    return { store: openEventStoreDb(config.EVENTSTORE_URL), description: 'EventStoreDB' };
  }
  const path = join(config.dataDir, 'events.db');
  return { store: openSqliteEventStore({ path, synchronous: config.SQLITE_SYNCHRONOUS }), description: `SQLite at ${path}` };
}
