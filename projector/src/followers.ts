// The followers of the log that a process runs beside its HTTP routes: the projector, and the
// Kafka publisher when KAFKA_BROKERS is set. One place starts them, one function stops them.
import type { Config } from '@eventide/shared/config.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Logger } from '@eventide/shared/log.ts';
import type { ReadStore } from '@eventide/shared/read-store/port.ts';
import { startProjector, type Projector } from './projector.ts';
import { startKafkaPublisher } from './start-publisher.ts';

export async function startFollowers(
  config: Config,
  eventStore: EventStore,
  readStore: ReadStore,
  log: Logger,
): Promise<{ projector: Projector; stop: () => Promise<void> }> {
  const projector = startProjector({ eventStore, readStore, log });
  const stopPublisher = await startKafkaPublisher(config, eventStore, readStore, log);
  return {
    projector,
    // Followers first, so that nothing writes to a store while it closes.
    async stop() {
      await Promise.all([projector.stop(), stopPublisher()]);
      await Promise.all([readStore.close(), eventStore.close()]);
    },
  };
}
