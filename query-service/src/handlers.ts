// Every operation the route table gives the query service, by name, for its own main and for the
// combined entry point.
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { changeStreamHandlers } from './handlers/changes.ts';
import { eventStreamHandlers } from './handlers/events.ts';
import { historyHandlers } from './handlers/history.ts';
import { orderReadHandlers } from './handlers/orders.ts';
import { productReadHandlers } from './handlers/products.ts';
import { pictureHandlers } from './handlers/pictures.ts';
import { searchHandlers } from './handlers/search.ts';
import { userReadHandlers } from './handlers/users.ts';
import type { QueryDeps } from './handlers/context.ts';
import { operatorHandlers } from './operator/handlers.ts';
import { webhookReadHandlers } from './operator/webhooks.ts';

export type { QueryDeps };

export function queryHandlers(deps: QueryDeps): Handlers<'query'> {
  return {
    ...userReadHandlers(deps),
    ...productReadHandlers(deps),
    ...pictureHandlers(deps),
    ...orderReadHandlers(deps),
    ...searchHandlers(deps),
    ...eventStreamHandlers(deps),
    ...changeStreamHandlers(deps),
    ...historyHandlers(deps),
    ...operatorHandlers(deps),
    ...webhookReadHandlers({ ...deps.webhooks, cursors: deps.cursors }),
  };
}
