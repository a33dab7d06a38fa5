// Starts the command service alone: `npm run start:command`. The composition root: the only
// place that opens adapters from configuration.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { authDeps } from './account/wire.ts';
import { commandRoutes } from './routes.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'command-service' });
const { store, description } = openEventStore(config);
const auth = await openAuth(config);
const app = createHttpApp({
  log,
  auth,
  routers: commandRoutes({ store, bodyLimit: config.BODY_LIMIT, auth: authDeps(config, auth) }),
  health: () => ({ eventStore: description, auth: auth.description }),
});
await serve({
  app,
  config,
  log,
  onClose: async () => {
    await store.close();
    await auth.close();
  },
});
