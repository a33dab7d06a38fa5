// The one Koa stack every service uses: correlation id and access log, a span per request, problem+json errors,
// sessions and the Origin check, then the route table mounted for the services of the process
// (mount.ts), 405 with Allow, GET /health and the liveness and readiness probes (/health/live,
// /health/ready), which every process serves.
import Koa from 'koa';
import type { LimitPolicy } from '@eventide/contract/limits.ts';
import type { LimitName } from '@eventide/contract/operations.ts';
import type { ApiRoute } from '@eventide/contract/routes.ts';
import type { LimiterFactory } from '../auth/rate-limit.ts';
import type { HttpAuth } from '../auth/open.ts';
import { originCheck } from '../auth/origin.ts';
import { installSessions } from '../auth/session.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { problemDetails } from './errors.ts';
import { takeForwardedAddress } from './forwarded.ts';
import { requestContext } from './request-context.ts';
import { allowedMethods, mountApi, type Handlers, type ServiceApi, type ServiceApiOf } from './mount.ts';
import { routesBySegment } from './routes-by-segment.ts';
import type { ReadBudget } from './read-budget.ts';
import { publicReadiness, type Readiness } from '@eventide/contract/resources/site/health.ts';
import { httpMetrics } from '../metrics/http.ts';
import { httpTracing } from '../tracing/spans.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** The media type of the health check response format (draft-inadarei-api-health-check). */
const HEALTH_JSON = 'application/health+json';

export interface HttpAppOptions {
  log: Logger;
  /** The services' operations (their handlers, by name). */
  apis: ServiceApi[];
  bodyLimit: number;
  /** Where rate limits count, and their budgets (api/limits.ts). */
  limits?: { limiters: LimiterFactory; policies: Record<LimitName, LimitPolicy> };
  /** Each client's budget of the server's time for reads (read-budget.ts). */
  readBudget?: ReadBudget;
  /** The routes to mount; the API's, unless a test of the stack gives its own. */
  routes?: readonly ApiRoute[];
  /** GET /health/ready: whether every store this process uses answers (service/readiness.ts). */
  ready?: () => Promise<Readiness>;
  /** Where every request is timed by its route template. */
  metrics?: Metrics;
  /** Sessions, the Origin check and the proxy policy; without it every request is anonymous. */
  auth?: HttpAuth;
}

const served = new WeakMap<Koa, ApiRoute[]>();

/** The routes an app made by createHttpApp serves: its services' part of the table (tests reach them all). */
export function routesServedBy(app: Koa): ApiRoute[] {
  const routes = served.get(app);
  if (!routes) throw new Error('not an app made by createHttpApp');
  return routes;
}

export function createHttpApp({ log, apis, bodyLimit, limits, routes, ready, metrics, auth, readBudget }: HttpAppOptions): Koa {
  const app = new Koa();
  if (auth) {
    // X-Forwarded-For and -Proto count only when proxies are declared, and then only their hops.
    app.proxy = auth.trustProxyHops > 0;
    app.maxIpsCount = auth.trustProxyHops;
  }
  // Koa would print unhandled errors itself; ours are all answered and logged by problemDetails.
  app.silent = true;
  app.use(takeForwardedAddress);
  app.use(requestContext(log));
  app.use(httpTracing());
  // Outside problemDetails, so that a request answered with a problem counts with its status.
  if (metrics) app.use(httpMetrics(metrics.httpRequestSeconds));
  app.use(problemDetails(log));
  if (auth) {
    installSessions(app, auth.sessions);
    app.use(originCheck(auth.allowedOrigins));
  }

  const platform: ServiceApiOf<'platform'> = { service: 'platform', handlers: platformHandlers(ready) };
  // One router over all, so that 405 lists the methods of every service on a path.
  const mounted = mountApi({
    apis: [platform, ...apis],
    bodyLimit,
    ...(limits ? { limits } : {}),
    ...(routes ? { routes } : {}),
    ...(readBudget ? { readBudget } : {}),
  });
  served.set(app, mounted.routes);
  app.use(routesBySegment(mounted.router));
  app.use(allowedMethods(mounted.routes));
  return app;
}

function platformHandlers(ready: HttpAppOptions['ready']): Handlers<'platform'> {
  return {
    // Whether the process answers, and nothing more: the public need not learn which files and
    // engines it runs on, or how many events it holds. Operators read that on the metrics port.
    health({ ctx }) {
      ctx.body = { status: 'ok' };
    },
    // Liveness: the process answers. Nothing else is asked, so a slow store never gets it restarted.
    healthLive({ ctx }) {
      ctx.type = HEALTH_JSON;
      ctx.body = JSON.stringify({ status: 'pass' });
    },
    // Readiness: every store this process uses answers, and the read models are not too far behind.
    // What each check observed and why it failed is an admin's (the operations console) and the
    // metrics port's: the public learns whether each passes.
    async healthReady({ ctx, principal }) {
      const answer: Readiness = ready ? await ready() : { status: 'pass', checks: {} };
      ctx.status = answer.status === 'pass' ? 200 : 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = HEALTH_JSON;
      ctx.body = JSON.stringify(principal?.admin ? answer : publicReadiness(answer));
    },
  };
}
