// The query service as one part of a process (packages/runtime/src/compose.ts): reads from the
// read models that a projector keeps up to date, here or in another process.
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { addQuerySections } from './personal-data.ts';
import { readConsistency } from './consistency.ts';
import { queryHandlers } from './handlers.ts';
import { queryDeps } from './wire.ts';

export function queryService(): ServiceFactory<Service> {
  return async ({ config, auth: openAuth, eventStore, readModels, projected, personalData }) => {
    const read = await readModels();
    // Sessions come from the same store the command service signs users in to.
    const auth = await openAuth();
    // The event store feeds GET /events (server-sent events) for subscribers without Kafka.
    const events = await eventStore();
    addQuerySections(personalData, read.store, events.store);
    const deps = queryDeps(config, read, { projected, eventStore: events.store });
    return {
      api: { service: 'query' as const, handlers: queryHandlers(deps), readConsistency: readConsistency(deps.progress) },
      health: () => ({ readStore: read.description, auth: auth.description }),
      close: async () => undefined,
    };
  };
}
