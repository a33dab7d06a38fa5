// A route table of a test's own, for tests of the HTTP stack itself (createHttpApp) that need
// routes the API does not have: each is declared here as the API's are, and mounted the same way.
import type { Context } from 'koa';
import type { Access, Method } from '@eventide/contract/operations.ts';
import { API_ROUTES, type ApiRoute } from '@eventide/contract/routes.ts';
import type { ServiceApi } from '@eventide/platform/http/mount.ts';

export interface TestRoute {
  method: Method;
  path: string;
  access?: Access;
  handle(ctx: Context): unknown;
}

/** The routes (every process's own, and these) and the api that handles them, for createHttpApp's `routes` and `apis`. */
export function testRoutes(routes: Record<string, TestRoute>): { routes: ApiRoute[]; apis: ServiceApi[] } {
  const own = Object.entries(routes).map(
    ([name, route]): ApiRoute => ({
      operation: name,
      operationId: name,
      method: route.method,
      path: route.path,
      spec: { service: 'docs', method: route.method, path: route.path, access: route.access ?? 'public', tag: 'test', summary: name },
      shape: { answers: {} },
      version: undefined,
      deprecated: false,
    }),
  );
  const handlers = Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [name, ({ ctx }: { ctx: Context }) => route.handle(ctx)]),
  );
  return {
    routes: [...API_ROUTES.filter((route) => route.spec.service === 'platform'), ...own],
    apis: [{ service: 'docs', handlers } as unknown as ServiceApi],
  };
}
