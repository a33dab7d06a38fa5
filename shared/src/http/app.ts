// The one Koa stack every service uses: correlation id and access log, problem+json errors,
// then the service's routers, 405 with Allow, and GET /health.
import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../log.ts';
import { problemDetails } from './errors.ts';
import { requestContext } from './request-context.ts';

export interface HttpAppOptions {
  log: Logger;
  routers: Router[];
  /** Extra facts for GET /health, such as which adapters are in use. */
  health?: () => Record<string, unknown>;
}

export function createHttpApp({ log, routers, health }: HttpAppOptions): Koa {
  const app = new Koa();
  // Koa would print unhandled errors itself; ours are all answered and logged by problemDetails.
  app.silent = true;
  app.use(requestContext(log));
  app.use(problemDetails(log));

  const root = new Router();
  root.get('/health', (ctx) => {
    ctx.body = { status: 'ok', ...(health?.() ?? {}) };
  });
  // One router over all, so that 405 lists the methods of every service on a path.
  for (const router of routers) root.use(router.routes());
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
