// Every write route of the command service, for its own main and for the combined entry point.
import type Router from '@koa/router';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { orderRoutes } from './order/routes.ts';
import { productRoutes } from './product/routes.ts';
import { userRoutes } from './user/routes.ts';

export interface CommandServiceDeps {
  store: EventStore;
  bodyLimit: number;
  now?: () => Date;
}

export function commandRoutes(deps: CommandServiceDeps): Router[] {
  return [userRoutes(deps), productRoutes(deps), orderRoutes(deps)];
}
