// listProducts by offset (page, limit) or by cursor (after, limit); pageProducts (cursor, limit)
// as {items, nextCursor}; getProduct. Lists are newest first. A cursor walk is stable under
// concurrent writes: it continues below the last product seen, and new products sort above it,
// so each product that existed when the walk began comes exactly once.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { productView } from '@eventide/contract/representations/product.ts';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import type { Cursors } from '../cursor.ts';
import { answerOne, findOne, offsetPage, type QueryDeps } from './context.ts';

const LIST = 'products';

/** One cursor page; nextCursor is null on the last page. */
async function cursorPage(readStore: ReadStore, cursors: Cursors, token: string, l: number, field: string) {
  const beforeSeq = token === '' ? undefined : cursors.decode(LIST, token, field);
  // One more than asked says whether another page exists, without a second query.
  const { items } = await readStore.list('products', { limit: l + 1, beforeSeq: beforeSeq ?? null });
  const pageItems = items.slice(0, l);
  const last = pageItems[pageItems.length - 1];
  return {
    items: pageItems.map((d) => productView(d.fields)),
    nextCursor: items.length > l && last ? cursors.encode(LIST, last.seq) : null,
  };
}

export function productReadHandlers({
  readStore,
  cursors,
}: QueryDeps): Pick<Handlers<'query'>, 'listProducts' | 'pageProducts' | 'getProduct'> {
  return {
    async listProducts({ ctx, query }) {
      const l = query.limit ?? DEFAULT_LIMIT;
      if (query.after !== undefined) {
        if (query.page !== undefined) throw problems.invalidField('page', 'page and after are two ways of paging: send one');
        ctx.body = await cursorPage(readStore, cursors, query.after, l, 'after');
        return;
      }
      ctx.body = await offsetPage(readStore, 'products', query, productView);
    },
    async pageProducts({ ctx, query }) {
      ctx.body = await cursorPage(readStore, cursors, query.cursor ?? '', query.limit ?? DEFAULT_LIMIT, 'cursor');
    },
    async getProduct({ ctx, params }) {
      answerOne(ctx, await findOne(readStore, 'products', params.id, 'product'), productView);
    },
  };
}
