// Chooses the event store adapter from configuration: EventStoreDB or PostgreSQL when its URL is
// set, otherwise the embedded SQLite file under the data directory. What the services open is this
// with the personal fields sealed (personal-data/open.ts).
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { EventStore } from './port.ts';
import { openSqliteEventStore } from './sqlite.ts';

export async function openEventStoreAdapter(config: Config): Promise<{ store: EventStore; description: string }> {
  if (config.EVENTSTORE_URL) {
    // Loaded only here: the embedded default never loads the gRPC client.
    const { openEventStoreDb } = await import('./eventstoredb.ts');
    return { store: openEventStoreDb(config.EVENTSTORE_URL), description: 'EventStoreDB' };
  }
  if (config.DATABASE_URL) {
    // Loaded only here: the embedded default never loads the PostgreSQL client.
    const { openPostgresEventStore } = await import('./postgres.ts');
    return {
      store: await openPostgresEventStore({ url: config.DATABASE_URL }),
      description: `PostgreSQL at ${safeUrl(config.DATABASE_URL)}`,
    };
  }
  const path = join(config.dataDir, 'events.db');
  return { store: openSqliteEventStore({ path, synchronous: config.SQLITE_SYNCHRONOUS }), description: `SQLite at ${path}` };
}

/** A database URL as logs may show it: without its password. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
