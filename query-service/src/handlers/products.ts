// listProducts by offset (page, limit) or by cursor (after, limit); pageProducts (cursor, limit)
// as {items, nextCursor}; each of one category when asked; getProduct. Lists are newest first. A cursor walk is stable under
// concurrent writes: it continues below the last product seen, and new products sort above it,
// so each product that existed when the walk began comes exactly once.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import { renderedJson, withItems } from './rendered.ts';
import { answerJson, findOne, offsetList, type QueryDeps } from './context.ts';
import { stateAt } from './as-of.ts';

const LIST = 'products';

/** The read store's filter for a category (its index: FILTERABLE), or none. */
const filterOf = (category: string | undefined) => (category === undefined ? {} : { filter: { category } });

export function productReadHandlers({
  readStore,
  cursors,
  eventStore,
}: QueryDeps): Pick<Handlers<'query'>, 'listProducts' | 'pageProducts' | 'getProduct'> {
  // Products hold no personal data, so their representations may be kept (rendered.ts).
  const productJson = renderedJson<'products'>(productView);

  /** One cursor page; nextCursor is null on the last page. A category's cursor pages that category only. */
  async function cursorPage(token: string, l: number, field: string, category: string | undefined): Promise<string> {
    const list = category === undefined ? LIST : `${LIST}:category:${category}`;
    const beforeSeq = token === '' ? undefined : cursors.decode(list, token, field);
    // One more than asked says whether another page exists, without a second query.
    const { items } = await readStore.list('products', { limit: l + 1, beforeSeq: beforeSeq ?? null, ...filterOf(category) });
    const pageItems = items.slice(0, l);
    const last = pageItems[pageItems.length - 1];
    return withItems(pageItems.map(productJson), { nextCursor: items.length > l && last ? cursors.encode(list, last.seq) : null });
  }

  return {
    async listProducts({ ctx, query }) {
      const l = query.limit ?? DEFAULT_LIMIT;
      if (query.after !== undefined) {
        if (query.page !== undefined) throw problems.invalidField('page', 'page and after are two ways of paging: send one');
        answerJson(ctx, await cursorPage(query.after, l, 'after', query.category));
        return;
      }
      const { docs, ...rest } = await offsetList(readStore, 'products', query, filterOf(query.category).filter);
      answerJson(ctx, withItems(docs.map(productJson), rest));
    },
    async pageProducts({ ctx, query }) {
      answerJson(ctx, await cursorPage(query.cursor ?? '', query.limit ?? DEFAULT_LIMIT, 'cursor', query.category));
    },
    async getProduct({ ctx, params, query, chargeReads }) {
      if (query.at !== undefined) {
        const { state, revision } = await stateAt(eventStore, 'product', params.id, query.at, chargeReads);
        ctx.set('ETag', `"${revision}"`);
        ctx.body = productView(state);
        return;
      }
      const doc = await findOne(readStore, 'products', params.id, 'product');
      ctx.set('ETag', `"${doc.version}"`);
      answerJson(ctx, productJson(doc));
    },
  };
}
