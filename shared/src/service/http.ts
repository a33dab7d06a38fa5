// The HTTP app of a composition: its services' routers, sessions when a service opened them,
// GET /health reporting every service, and the liveness and readiness probes.
import type Koa from 'koa';
import { createHttpApp } from '../http/app.ts';
import type { Logger } from '../log.ts';
import type { Composition, Service } from './compose.ts';

export function httpAppOf(
  composition: Pick<Composition<Record<string, Service>>, 'routers' | 'health' | 'ready' | 'auth' | 'platform'>,
  log: Logger,
): Koa {
  const { routers, health, ready, auth, platform } = composition;
  return createHttpApp({ log, routers, health, ready, metrics: platform.metrics, ...(auth ? { auth } : {}) });
}
