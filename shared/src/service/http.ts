// The HTTP app of a composition: its services' routers, sessions when a service opened them,
// and GET /health reporting every service.
import type Koa from 'koa';
import { createHttpApp } from '../http/app.ts';
import type { Logger } from '../log.ts';
import type { Composition, Service } from './compose.ts';

export function httpAppOf(composition: Pick<Composition<Record<string, Service>>, 'routers' | 'health' | 'auth'>, log: Logger): Koa {
  const { routers, health, auth } = composition;
  return createHttpApp({ log, routers, health, ...(auth ? { auth } : {}) });
}
