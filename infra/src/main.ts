// The one entry point of `npm start`: every service on one base URL (PORT, default 3000),
// data under DATA_DIR (default ./data), on the embedded adapters unless engine URLs are set.
// Services join here as they are built; each can also start alone from its own main.ts.
import { loadConfig, ConfigError } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { commandRoutes } from '@eventide/command-service/src/routes.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const log = createLogger({ level: config.LOG_LEVEL, name: 'eventide' });
const { store, description } = openEventStore(config);
log.info({ eventStore: description, dataDir: config.dataDir }, 'starting');

const app = createHttpApp({
  log,
  routers: [...commandRoutes({ store, bodyLimit: config.BODY_LIMIT })],
  health: () => ({ eventStore: description }),
});
await serve({ app, config, log, onClose: () => store.close() });
