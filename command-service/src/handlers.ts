// Every operation the route table gives the command service, by name (service.ts puts them in a
// process): the write side, and sign-in.
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Handlers } from '@eventide/shared/http/mount.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import type { AuthDeps } from './account/deps.ts';
import { accountHandlers } from './account/handlers.ts';
import { oauthHandlers, type OAuthDeps } from './oauth/handlers.ts';
import { orderHandlers } from './order/handlers.ts';
import { productHandlers } from './product/handlers.ts';
import { userHandlers } from './user/handlers.ts';

export interface CommandServiceDeps {
  store: EventStore;
  /** Where the keys that seal personal data are: deleting a user destroys theirs. Its keyed hash names claim streams. */
  keys: KeyStore;
  now?: () => Date;
  auth: AuthDeps;
  oauth: OAuthDeps;
}

export function commandHandlers(deps: CommandServiceDeps): Handlers<'command'> {
  return {
    ...accountHandlers(deps.store, deps.keys, deps.auth),
    ...oauthHandlers(deps.store, deps.keys, deps.oauth),
    ...userHandlers(deps),
    ...productHandlers(deps),
    ...orderHandlers(deps),
  };
}
