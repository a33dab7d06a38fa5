// The one entry point of `npm start`: every service on one base URL (PORT, default 3000),
// data under DATA_DIR (default ./data), on the embedded adapters unless engine URLs are set.
// Each service can also start alone from its own main.ts.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { authDeps } from '@eventide/command-service/src/account/wire.ts';
import { loadConfig, ConfigError } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { commandRoutes } from '@eventide/command-service/src/routes.ts';
import { queryRoutes } from '@eventide/query-service/src/routes.ts';
import { queryDeps } from '@eventide/query-service/src/wire.ts';
import { startFollowers } from '@eventide/projector/src/followers.ts';
import { openCollab } from '@eventide/collab-service/src/wire.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const log = createLogger({ level: config.LOG_LEVEL, name: 'eventide' });
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
log.info({ eventStore: eventStore.description, readStore: readStore.description, dataDir: config.dataDir }, 'starting');

const auth = await openAuth(config);
let commandAuth;
try {
  commandAuth = authDeps(config, auth);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const { projector, stop } = await startFollowers(config, eventStore.store, readStore.store, log);
const collab = await openCollab(config, { auth, log });
const app = createHttpApp({
  log,
  auth,
  routers: [
    ...commandRoutes({ store: eventStore.store, bodyLimit: config.BODY_LIMIT, auth: commandAuth }),
    ...queryRoutes(
      queryDeps(config, readStore.store, { subscribe: (listener) => projector.onProgress(listener), eventStore: eventStore.store, limiters: auth.limiters }),
    ),
    ...collab.routers,
  ],
  health: () => ({
    eventStore: eventStore.description,
    readStore: readStore.description,
    collab: collab.description,
    auth: auth.description,
    projectedTo: projector.position(),
  }),
});
const server = await serve({
  app,
  config,
  log,
  beforeDrain: () => collab.disconnect(),
  onClose: async () => {
    await collab.close();
    await stop();
    await auth.close();
  },
});
collab.attach(server);
