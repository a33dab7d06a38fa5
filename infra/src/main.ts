// The one entry point of `npm start`: every service in one process on one base URL (PORT,
// default 3000), data under DATA_DIR (default ./data), on the embedded adapters unless engine
// URLs are set. The followers (projector, publisher, forgetter) run on a thread of their own
// (projector/src/thread.ts, FOLLOWERS_THREAD), and reads are answered on HTTP_THREADS threads that
// share the port (request-thread.ts). Each service can also start alone from its own main.ts.
import { keepCompiledCode } from '@eventide/runtime/compile-cache.ts';

// Before the services' modules load: they are imported below, not at the top, for that.
keepCompiledCode();
const [{ runServices }, command, projector, query, collab, docs, exports, web] = await Promise.all([
  import('@eventide/runtime/run.ts'),
  import('@eventide/command-service/src/service.ts'),
  import('@eventide/projector/src/thread.ts'),
  import('@eventide/query-service/src/service.ts'),
  import('@eventide/collab-service/src/service.ts'),
  import('@eventide/runtime/docs-service.ts'),
  import('@eventide/runtime/export-service.ts'),
  import('@eventide/web/src/service.ts'),
]);

await runServices(
  'eventide',
  {
    command: command.commandService(),
    projector: projector.projectorBesideRequests('eventide'),
    query: query.queryService(),
    collab: collab.collabService(),
    export: exports.personalDataExportService(),
    docs: docs.apiDocsService(),
    web: web.webAppService(),
  },
  { requestThreads: new URL('./request-thread.ts', import.meta.url) },
);
