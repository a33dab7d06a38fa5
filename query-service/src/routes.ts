// Every read route of the query service, for its own main and for the combined entry point.
import type Router from '@koa/router';
import { orderReadRoutes } from './routes/orders.ts';
import { productReadRoutes } from './routes/products.ts';
import { searchRoutes } from './routes/search.ts';
import { eventStreamRoutes } from './routes/events.ts';
import { userReadRoutes } from './routes/users.ts';
import type { QueryDeps } from './routes/context.ts';

export type { QueryDeps };

export function queryRoutes(deps: QueryDeps): Router[] {
  const routers = [userReadRoutes(deps), productReadRoutes(deps), orderReadRoutes(deps), searchRoutes(deps)];
  if (deps.eventStore) routers.push(eventStreamRoutes({ eventStore: deps.eventStore }));
  return routers;
}
