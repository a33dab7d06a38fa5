// Starts the collab service alone: `npm run start:collab`. Users sign in through the command
// service (same DATA_DIR or MONGO_URL, same SESSION_SECRET); the session cookie carries over.
import { runServices } from '@eventide/runtime/run.ts';
import { collabService } from './service.ts';

await runServices('collab-service', { collab: collabService() });
