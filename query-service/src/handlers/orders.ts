// listOrders (offset pages, filtered by user and status) and getOrder, in every version the table
// serves them. Who may see an order is its life cycle's rule (orderModel's maySee): the mount
// applies it to one order through readOwnership (ownership.ts); a list holds only what its reader may see.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import { owned, type Handlers } from '@eventide/platform/http/mount.ts';
import { listedCustomer } from '@eventide/kernel/models/order/life-cycle.ts';
import { readOwnership } from '../ownership.ts';
import { stateAt } from './as-of.ts';
import { answerOne, live, offsetPage, type QueryDeps } from './context.ts';

export function orderReadHandlers({ readStore, eventStore }: QueryDeps): Pick<Handlers<'query'>, 'listOrders' | 'getOrder'> {
  return {
    async listOrders({ ctx, query, principal, represent }) {
      const filter: Record<string, string> = {};
      const customer = listedCustomer(principal, query.userId);
      if (customer === null) {
        ctx.body = { items: [], page: query.page ?? 1, limit: query.limit ?? DEFAULT_LIMIT, total: 0 };
        return;
      }
      if (customer !== undefined) filter.userId = customer;
      if (query.status) filter.status = query.status;
      ctx.body = await offsetPage(readStore, 'orders', query, represent, filter);
    },
    // As of a moment too, under the same rule: an order's customer never changes.
    getOrder: owned(readOwnership(readStore), async ({ ctx, params, query, owned: doc, represent, chargeReads }) => {
      if (query.at !== undefined) {
        const { state, revision } = await stateAt(eventStore, 'order', params.id, query.at, chargeReads);
        ctx.set('ETag', `"${revision}"`);
        ctx.body = represent(state);
        return;
      }
      answerOne(ctx, live(doc, `order ${params.id}`), represent);
    }),
  };
}
