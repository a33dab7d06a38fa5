// Starts the site alone: `npm run start:site`, the process a split deployment's front door sends
// every path to that no API service owns (docs/operations.md): the web app, the API docs and
// /openapi.json, and the personal-data export, which gathers each service's part of a person's
// data from the shared stores. Users sign in through the command service (same DATA_DIR or
// MONGO_URL, same SESSION_SECRET); the session cookie carries over.
import { runServices } from '@eventide/runtime/run.ts';
import { apiDocsService } from '@eventide/runtime/docs-service.ts';
import { personalDataExportService } from '@eventide/runtime/export-service.ts';
import { webAppService } from '@eventide/web/src/service.ts';
import { commandPersonalData } from '@eventide/command-service/src/service.ts';
import { queryPersonalData } from '@eventide/query-service/src/service.ts';
import { collabPersonalData } from '@eventide/collab-service/src/service.ts';

await runServices('site', {
  commandSections: commandPersonalData(),
  querySections: queryPersonalData(),
  collabSections: collabPersonalData(),
  export: personalDataExportService(),
  docs: apiDocsService(),
  web: webAppService(),
});
