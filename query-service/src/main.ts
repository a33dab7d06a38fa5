// Starts the query service alone: `npm run start:query`. Reads what a projector (in another
// process: `npm run start:projector`) keeps up to date.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { queryRoutes } from './routes.ts';
import { queryDeps } from './wire.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'query-service' });
const { store, description } = await openReadStore(config);
// The event store feeds GET /events (server-sent events) for subscribers without Kafka.
const events = openEventStore(config);
// Sessions come from the same store the command service signs users in to.
const auth = await openAuth(config);
const app = createHttpApp({
  log,
  auth,
  routers: queryRoutes(queryDeps(config, store, { eventStore: events.store, limiters: auth.limiters })),
  health: () => ({ readStore: description, auth: auth.description }),
});
await serve({ app, config, log, onClose: async () => void (await Promise.all([store.close(), events.store.close(), auth.close()])) });
