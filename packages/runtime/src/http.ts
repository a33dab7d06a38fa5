// The HTTP app of a composition: the route table mounted for its services, sessions when a
// service opened them, GET /health reporting every service, and the liveness and readiness probes.
import type Koa from 'koa';
import { limitPolicies } from '@eventide/contract/limits.ts';
import { createHttpApp } from '@eventide/platform/http/app.ts';
import { ReadBudget } from '@eventide/platform/http/read-budget.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { Composition, Service } from './compose.ts';

export function httpAppOf(
  composition: Pick<Composition<Record<string, Service>>, 'apis' | 'ready' | 'auth' | 'platform'>,
  log: Logger,
): Koa {
  const { apis, ready, auth, platform } = composition;
  const { config } = platform;
  return createHttpApp({
    log,
    apis,
    bodyLimit: config.BODY_LIMIT,
    ready,
    metrics: platform.metrics,
    ...(config.RATE_LIMIT_READ_MS_PER_SECOND > 0 ? { readBudget: new ReadBudget(config.RATE_LIMIT_READ_MS_PER_SECOND) } : {}),
    ...(auth ? { auth, limits: { limiters: auth.limiters, policies: limitPolicies(config) } } : {}),
  });
}
