// The projector as one part of a process (shared/src/service/compose.ts): it follows the event
// store into the read models, and publishes to Kafka when KAFKA_BROKERS is set. It serves no
// routes of its own, only what it reports on GET /health.
import type { Service, ServiceFactory } from '@eventide/shared/service/compose.ts';
import { startProjector, type Projector } from './projector.ts';
import { startKafkaPublisher } from './start-publisher.ts';

export interface ProjectorService extends Service {
  projector: Projector;
}

export function projectorService(): ServiceFactory<ProjectorService> {
  return async ({ config, log, eventStore, readStore, projected }) => {
    const events = await eventStore();
    const read = await readStore();
    const projector = startProjector({ eventStore: events.store, readStore: read.store, log });
    const stopWatching = projector.onProgress(() => projected.notify());
    const stopPublisher = await startKafkaPublisher(config, events.store, read.store, log);
    return {
      projector,
      routers: [],
      health: () => ({ eventStore: events.description, readStore: read.description, projectedTo: projector.position() }),
      async close() {
        stopWatching();
        await Promise.all([projector.stop(), stopPublisher()]);
      },
    };
  };
}
