// The one entry point of `npm start`: every service in one process on one base URL (PORT,
// default 3000), data under DATA_DIR (default ./data), on the embedded adapters unless engine
// URLs are set. The followers (projector, publisher, forgetter) run on a second thread
// (projector/src/thread.ts, FOLLOWERS_THREAD). Each service can also start alone from its own main.ts.
import { runServices } from '@eventide/runtime/run.ts';
import { commandService } from '@eventide/command-service/src/service.ts';
import { projectorBesideRequests } from '@eventide/projector/src/thread.ts';
import { queryService } from '@eventide/query-service/src/service.ts';
import { collabService } from '@eventide/collab-service/src/service.ts';
import { apiDocsService } from '@eventide/runtime/docs-service.ts';
import { personalDataExportService } from '@eventide/runtime/export-service.ts';
import { webAppService } from '@eventide/web/src/service.ts';

await runServices('eventide', {
  command: commandService(),
  projector: projectorBesideRequests('eventide'),
  query: queryService(),
  collab: collabService(),
  export: personalDataExportService(),
  docs: apiDocsService(),
  web: webAppService(),
});
