// The query service as one part of a process (packages/runtime/src/compose.ts): reads from the
// read models that a projector keeps up to date, here or in another process.
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { addQuerySections } from './personal-data.ts';
import { readConsistency } from './consistency.ts';
import { queryHandlers } from './handlers.ts';
import { queryDeps } from './wire.ts';

export function queryService(): ServiceFactory<Service> {
  return async ({
    config,
    log,
    auth: openAuth,
    eventStore,
    readModels,
    parked,
    deadlines,
    webhooks,
    images,
    clock,
    projected,
    personalData,
    metrics,
  }) => {
    const read = await readModels();
    // Sessions come from the same store the command service signs users in to.
    const auth = await openAuth();
    // The event store feeds GET /events (server-sent events) for subscribers without Kafka, and
    // the live streams of GET /changes.
    const events = await eventStore();
    addQuerySections(personalData, read.store, events.store);
    const stopping = new AbortController();
    const deps = queryDeps(config, read, {
      projected,
      eventStore: events.store,
      parked: (await parked()).store,
      deadlines: (await deadlines()).store,
      webhooks: (await webhooks()).store,
      images: (await images()).store,
      clock,
      stopping: stopping.signal,
      auth,
      log,
    });
    metrics.gaugeOnScrape(
      'live_streams_unread_bytes',
      'Bytes the live change streams (GET /changes) of this process hold unread, together (bounded by LIVE_UNREAD_BYTES)',
      () => deps.live.unread.held,
    );
    return {
      api: { service: 'query' as const, handlers: queryHandlers(deps), readConsistency: readConsistency(deps.progress) },
      health: () => ({ readStore: read.description, auth: auth.description }),
      disconnect: async () => stopping.abort(),
      close: async () => undefined,
    };
  };
}

/**
 * The query side's part of a person's export alone, for a process that serves exports without
 * the query service (the site process of a split deployment: infra/src/site.ts).
 */
export function queryPersonalData(): ServiceFactory<Service> {
  return async ({ eventStore, readModels, personalData }) => {
    const read = await readModels();
    addQuerySections(personalData, read.store, (await eventStore()).store);
    return { health: () => ({ querySections: read.description }), close: async () => undefined };
  };
}
