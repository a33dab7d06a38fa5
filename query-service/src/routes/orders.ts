// GET /orders (offset pages, filtered by user and status), /orders/{id}, and /v1, /v2.
import Router from '@koa/router';
import { orderV1, orderV2 } from '@eventide/shared/models/order/representation.ts';
import type { OrderState } from '@eventide/shared/models/order/state.ts';
import { deprecatedVersion } from '@eventide/shared/http/versioning.ts';
import { isAdmin, principalOf, requireUser } from '@eventide/shared/auth/session.ts';
import { maySee } from '@eventide/shared/models/order/life-cycle.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { DEFAULT_LIMIT } from '@eventide/shared/api/paging.ts';
import { orderListQuery as listQuery } from '@eventide/shared/api/orders.ts';
import { findOne, offsetPage, reader, type QueryDeps, type Render } from './context.ts';

const v1: Render = (f) => orderV1(f as unknown as OrderState);
const v2: Render = (f) => orderV2(f as unknown as OrderState);

export function orderReadRoutes({ readStore, progress }: QueryDeps): Router {
  const router = new Router();
  const get = reader(router, progress);
  router.use('/v1/orders', deprecatedVersion('/v2'));

  for (const [prefix, render] of [
    ['', v2],
    ['/v2', v2],
    ['/v1', v1],
  ] as const) {
    get(`${prefix}/orders`, async (ctx) => {
      const user = requireUser(ctx);
      const query = parseQuery(ctx, listQuery);
      const filter: Record<string, string> = {};
      if (query.userId) filter.userId = query.userId;
      // A user lists their own orders; another user's list is as empty as a stranger's.
      if (!isAdmin(user)) {
        if (query.userId && query.userId !== user.id) {
          ctx.body = { items: [], page: query.page ?? 1, limit: query.limit ?? DEFAULT_LIMIT, total: 0 };
          return;
        }
        filter.userId = user.id;
      }
      if (query.status) filter.status = query.status;
      ctx.body = await offsetPage(readStore, 'orders', query, render, filter);
    });
    get(`${prefix}/orders/:id`, async (ctx) => {
      const who = principalOf(requireUser(ctx));
      const doc = await findOne(readStore, 'orders', ctx, 'order', (d) => maySee(String(d.fields.userId), who));
      ctx.set('ETag', `"${doc.version}"`);
      ctx.body = render(doc.fields);
    });
  }
  return router;
}
