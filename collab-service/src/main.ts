// Starts the collab service alone: `npm run start:collab`. Users sign in through the command
// service (same DATA_DIR or MONGO_URL, same SESSION_SECRET); the session cookie carries over.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { serve } from '@eventide/shared/http/serve.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { openCollab } from './wire.ts';

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, name: 'collab-service' });
const auth = await openAuth(config);
const collab = await openCollab(config, { auth, log });
const app = createHttpApp({ log, auth, routers: collab.routers, health: () => ({ collab: collab.description, auth: auth.description }) });
const server = await serve({ app, config, log, beforeDrain: () => collab.disconnect(), onClose: async () => void (await Promise.all([collab.close(), auth.close()])) });
collab.attach(server);
