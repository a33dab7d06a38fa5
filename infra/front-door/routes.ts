// The front door's routing table, derived from the API's route table (API_ROUTES: one route per
// path a version is served under): every concrete path, the process that answers each of its
// methods, and the methods to list in Allow. nginx.ts writes it as nginx maps.
import type { Method } from '@eventide/contract/operations.ts';
import { API_ROUTES, type ApiRoute } from '@eventide/contract/routes.ts';
import { allowOf, bySpecificity } from '@eventide/contract/path-templates.ts';
import { PROCESS_OF, type ProcessName } from './topology.ts';

export interface DoorPath {
  /** As the table writes it, with its version prefix: /v1/users/{id}. */
  template: string;
  /** Which process answers each method the path has. */
  methods: Map<Method, ProcessName>;
}

/** Every concrete path of the route table, most specific first. Two processes on one method and path is a mistake in the table, and throws. */
export function doorPaths(routes: readonly ApiRoute[] = API_ROUTES): DoorPath[] {
  const paths = new Map<string, DoorPath>();
  for (const route of routes) {
    const path = paths.get(route.path) ?? { template: route.path, methods: new Map() };
    paths.set(route.path, path);
    const process = PROCESS_OF[route.spec.service];
    const taken = path.methods.get(route.method);
    if (taken && taken !== process)
      throw new Error(`${route.method.toUpperCase()} ${route.path} is served by both ${taken} and ${process}`);
    path.methods.set(route.method, process);
  }
  // Most specific first, so that the first pattern a request matches is the one it means.
  return [...paths.values()].sort((a, b) => bySpecificity(a.template, b.template));
}

/** The methods a path answers, as the API's own Allow header lists them. */
export const allowOfPath = (path: DoorPath) => allowOf(path.methods.keys());
