// GET /products by offset (page, limit) or by cursor (after, limit); GET /api/products (cursor,
// limit) as {items, nextCursor}; GET /products/{id}. Lists are newest first. A cursor walk is
// stable under concurrent writes: it continues below the last product seen, and new products
// sort above it, so each product that existed when the walk began comes exactly once.
import Router from '@koa/router';
import { problems } from '@eventide/shared/http/problem.ts';
import type { ReadStore } from '@eventide/shared/read-store/port.ts';
import { productView } from '@eventide/shared/models/product/representation.ts';
import type { ProductState } from '@eventide/shared/models/product/state.ts';
import type { Cursors } from '../cursor.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { DEFAULT_LIMIT } from '@eventide/shared/api/paging.ts';
import { productCursorQuery as apiQuery, productListQuery as productsQuery } from '@eventide/shared/api/products.ts';
import { byId, offsetPage, reader, type QueryDeps } from './context.ts';

const LIST = 'products';
const render = (fields: unknown) => productView(fields as unknown as ProductState);

/** One cursor page; nextCursor is null on the last page. */
async function cursorPage(readStore: ReadStore, cursors: Cursors, token: string, l: number, field: string) {
  const beforeSeq = token === '' ? undefined : cursors.decode(LIST, token, field);
  // One more than asked says whether another page exists, without a second query.
  const { items } = await readStore.list('products', { limit: l + 1, beforeSeq: beforeSeq ?? null });
  const pageItems = items.slice(0, l);
  const last = pageItems[pageItems.length - 1];
  return { items: pageItems.map((d) => render(d.fields)), nextCursor: items.length > l && last ? cursors.encode(LIST, last.seq) : null };
}

export function productReadRoutes({ readStore, cursors, progress }: QueryDeps): Router {
  const router = new Router();
  const get = reader(router, progress);

  get('/products', async (ctx) => {
    const query = parseQuery(ctx, productsQuery);
    const l = query.limit ?? DEFAULT_LIMIT;
    if (query.after !== undefined) {
      if (query.page !== undefined) throw problems.invalidField('page', 'page and after are two ways of paging: send one');
      ctx.body = await cursorPage(readStore, cursors, query.after, l, 'after');
      return;
    }
    ctx.body = await offsetPage(readStore, 'products', query, render);
  });

  get('/api/products', async (ctx) => {
    const query = parseQuery(ctx, apiQuery);
    ctx.body = await cursorPage(readStore, cursors, query.cursor ?? '', query.limit ?? DEFAULT_LIMIT, 'cursor');
  });

  get('/products/:id', byId(readStore, 'products', 'product', render));
  return router;
}
