// Starts the projector alone: `npm run start:projector`, with the Kafka publisher when
// KAFKA_BROKERS is set. It serves only GET /health.
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { startFollowers } from './followers.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'projector' });
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
const { projector, stop } = await startFollowers(config, eventStore.store, readStore.store, log);
const app = createHttpApp({ log, routers: [], health: () => ({ position: projector.position() }) });
await serve({ app, config, log, onClose: stop });
