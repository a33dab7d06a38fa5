// Which requests a request thread answers itself, and which it hands to the thread that writes:
// derived from the route table, so that a new operation goes where its kind says without a list
// to keep. A request thread answers the reads of the services it runs (the read models and the
// docs) that end with their answer. Everything else goes to the writing thread: writes,
// sign-in and sessions' own routes, the collaborative editor, exports, the probes (which answer for
// the whole process), the live streams (whose per-user caps are counted in one place), and any
// path the table does not know, which the writing thread answers with its 404 or 405.
import type { ApiRoute } from '@eventide/contract/routes.ts';
import type { ServiceName } from '@eventide/contract/operations.ts';
import { bySpecificity, pathRegExp } from '@eventide/contract/path-templates.ts';

/**
 * Whether a request thread running `services` answers this route: a read of one of them whose
 * answer is not a stream. The services are those the thread composed (infra/src/request-thread.ts
 * names them: the query service and the docs, not the web app, whose files are a few, compressed
 * once and cached by browsers, and whose build took a core for a second at each thread's start).
 */
export function answeredOnRequestThreads(route: ApiRoute, services: ReadonlySet<ServiceName>): boolean {
  if (route.method !== 'get' || !services.has(route.spec.service)) return false;
  const answers = Object.values(route.shape.answers) as Array<{ contentType?: string }>;
  return !answers.some((answer) => answer.contentType === 'text/event-stream');
}

interface Candidate {
  pattern: RegExp;
  here: boolean;
}

/** The first segment of a path, lower-cased, as the routers compare it. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * `(method, path) => whether this thread answers it`. A GET or HEAD is looked up among the GET
 * routes whose first segment is the path's, the more specific first (as the mount dispatches);
 * every other method, and a path no GET route has, is handed over.
 */
export function requestThreadAnswers(
  routes: readonly ApiRoute[],
  services: ReadonlySet<ServiceName>,
): (method: string, path: string) => boolean {
  const gets = routes.filter((route) => route.method === 'get').sort((a, b) => bySpecificity(a.path, b.path));
  const candidates = (routesOfSegment: ApiRoute[]): Candidate[] =>
    routesOfSegment.map((route) => ({ pattern: pathRegExp(route.path), here: answeredOnRequestThreads(route, services) }));
  const anySegment = gets.filter((route) => route.path.startsWith('/{'));
  const bySegment = new Map<string, Candidate[]>();
  for (const route of gets) {
    if (route.path.startsWith('/{')) continue;
    const segment = firstSegment(route.path);
    if (bySegment.has(segment)) continue;
    bySegment.set(segment, candidates(gets.filter((other) => other.path.startsWith('/{') || firstSegment(other.path) === segment)));
  }
  const rest = candidates(anySegment);
  // A segment none of whose routes is answered here (/auth, /collab, /health) needs no pattern tested.
  const handedOverWhole = new Set(
    [...bySegment].filter(([, list]) => list.every((candidate) => !candidate.here)).map(([segment]) => segment),
  );
  return (method, path) => {
    if (method !== 'GET' && method !== 'HEAD') return false;
    const segment = firstSegment(path);
    if (handedOverWhole.has(segment)) return false;
    for (const candidate of bySegment.get(segment) ?? rest) if (candidate.pattern.test(path)) return candidate.here;
    return false;
  };
}

/** A request target's path, without its query: what the routes are matched on. */
export const pathOf = (target = '/'): string => {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
};
