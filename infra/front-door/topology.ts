// The processes of a split deployment, and which of them serves each service of the route table
// (operations.ts names a service per operation). The front door (nginx.ts) sends each path there;
// each process's main.ts mounts the services listed here for it, which the front door's end-to-end
// test checks by calling every operation of the table through the door.
import type { ServiceName } from '@eventide/contract/operations.ts';

/** The processes that answer HTTP, each started by its npm script (`npm run start:<process>`). */
export const PROCESSES = ['command', 'query', 'collab', 'site'] as const;
export type ProcessName = (typeof PROCESSES)[number];

/**
 * The site process (infra/src/site.ts) serves what no API service owns: the web app, the API docs
 * and the export; and, for the front door, the health routes every process answers, so that
 * `GET /health` through the door says whether the door and its site answer.
 */
export const PROCESS_OF: Record<ServiceName, ProcessName> = {
  command: 'command',
  query: 'query',
  collab: 'collab',
  docs: 'site',
  web: 'site',
  export: 'site',
  platform: 'site',
};
