// Starts the query service alone: `npm run start:query`. Reads what a projector (in another
// process: `npm run start:projector`) keeps up to date.
import { runServices } from '@eventide/runtime/run.ts';
import { queryService } from './service.ts';

await runServices('query-service', { query: queryService() });
