// Starts the projector alone: `npm run start:projector`. It serves only GET /health.
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { startProjector } from './projector.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'projector' });
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
const projector = startProjector({ eventStore: eventStore.store, readStore: readStore.store, log });
const app = createHttpApp({ log, routers: [], health: () => ({ position: projector.position() }) });
await serve({
  app,
  config,
  log,
  onClose: async () => {
    await projector.stop();
    await Promise.all([readStore.store.close(), eventStore.store.close()]);
  },
});
