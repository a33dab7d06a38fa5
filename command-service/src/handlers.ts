// Every operation the route table gives the command service, by name (service.ts puts them in a
// process): the write side, and sign-in.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { identityHandlers } from './identity/handlers.ts';
import { oauthHandlers, type OAuthDeps } from './oauth/handlers.ts';
import { orderHandlers } from './order/handlers.ts';
import { productHandlers } from './product/handlers.ts';
import { userHandlers } from './user/handlers.ts';
import type { WriteSide } from './write-side.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import { operatorHandlers, type OperatorDeps } from './operator/handlers.ts';
import { webhookHandlers, type WebhookDeps } from './webhooks/handlers.ts';

export function commandHandlers(
  store: EventStore,
  writes: WriteSide,
  oauth: OAuthDeps,
  operator: OperatorDeps,
  webhooks: WebhookDeps,
  images: ImageStore,
): Handlers<'command'> {
  return {
    ...operatorHandlers(operator),
    ...webhookHandlers(webhooks),
    ...identityHandlers(store, writes.identity),
    ...oauthHandlers(writes.identity, oauth),
    ...userHandlers(writes.identity.runUser),
    ...productHandlers(writes.products, images),
    ...orderHandlers(store, writes.orders),
  };
}
