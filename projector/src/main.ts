// Starts the projector alone: `npm run start:projector`, with the Kafka publisher when
// KAFKA_BROKERS is set. It serves only GET /health.
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { startProjector } from './projector.ts';
import { startKafkaPublisher } from './start-publisher.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'projector' });
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
const projector = startProjector({ eventStore: eventStore.store, readStore: readStore.store, log });
const stopPublisher = await startKafkaPublisher(config, eventStore.store, readStore.store, log);
const app = createHttpApp({ log, routers: [], health: () => ({ position: projector.position() }) });
await serve({
  app,
  config,
  log,
  onClose: async () => {
    await Promise.all([projector.stop(), stopPublisher()]);
    await Promise.all([readStore.store.close(), eventStore.store.close()]);
  },
});
