// Every write route of the command service, and sign-in (service.ts puts them in a process).
import type Router from '@koa/router';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import type { AuthDeps } from './account/deps.ts';
import { accountRoutes } from './account/routes.ts';
import { oauthRoutes, type OAuthDeps } from './oauth/routes.ts';
import { orderRoutes } from './order/routes.ts';
import { productRoutes } from './product/routes.ts';
import { userRoutes } from './user/routes.ts';

export interface CommandServiceDeps {
  store: EventStore;
  /** Where the keys that seal personal data are: deleting a user destroys theirs. Its keyed hash names claim streams. */
  keys: KeyStore;
  bodyLimit: number;
  now?: () => Date;
  auth: AuthDeps;
  oauth: OAuthDeps;
}

export function commandRoutes(deps: CommandServiceDeps): Router[] {
  return [
    accountRoutes(deps.store, deps.keys, deps.bodyLimit, deps.auth),
    // After the account routes: /auth/{provider} must not take "session" or "sign-in" as a name.
    oauthRoutes(deps.store, deps.keys, deps.oauth),
    userRoutes(deps),
    productRoutes(deps),
    orderRoutes(deps),
  ];
}
