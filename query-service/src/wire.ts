// Builds the query service's dependencies from the open read models: cursor secret, progress, limits.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import type { ReadModels } from '@eventide/stores/read-models/open.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { loadOrCreateSecret } from '@eventide/kernel/secret.ts';
import { cursors } from './cursor.ts';
import { progressOf, type ProjectorSignal } from './consistency.ts';
import type { QueryDeps } from './handlers.ts';

export function queryDeps(
  config: Config,
  { store: readStore, search: productSearch }: Pick<ReadModels, 'store' | 'search'>,
  options: { projected?: ProjectorSignal; eventStore: EventStore; stopping: AbortSignal },
): QueryDeps {
  const secret = loadOrCreateSecret(config.CURSOR_SECRET, join(config.dataDir, 'cursor-secret'));
  return {
    readStore,
    productSearch,
    cursors: cursors(secret),
    progress: progressOf(readStore, options.projected, options.stopping),
    eventStore: options.eventStore,
    stopping: options.stopping,
  };
}
