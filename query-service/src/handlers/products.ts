// listProducts by offset (page, limit) or by cursor (after, limit); pageProducts (cursor, limit)
// as {items, nextCursor}; each of one category, in one currency and price range, in an order
// (newest first unless `sort` says) when asked; getProduct. A cursor walk is stable under
// concurrent writes: it continues after the last product seen, in the list's order, so each
// product that existed when the walk began, and did not move in the order meanwhile, comes once.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { problems } from '@eventide/contract/problems.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import { renderedJson, withItems } from './rendered.ts';
import { answerJson, findOne, offsetList, type QueryDeps } from './context.ts';
import { stateAt } from './as-of.ts';
import { type KeyConditions, type ListOrder, type ListPosition, positionOf } from '@eventide/stores/read-store/list-keys.ts';

const LIST = 'products';

/** What narrows and orders a list of products, as both list operations take it. */
interface ListParameters {
  category?: string | undefined;
  sort?: string | undefined;
  currency?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

/** The read store's order for a `sort` (newest first: none). */
function orderOf(sort: string | undefined): ListOrder | undefined {
  if (sort === undefined || sort === 'newest') return undefined;
  return sort.startsWith('-') ? { by: sort.slice(1), descending: true } : { by: sort, descending: false };
}

/** The read store's conditions on the price keys, or none. */
function priceKeysOf({ currency, minPrice, maxPrice }: ListParameters): KeyConditions | undefined {
  if (currency === undefined) return undefined;
  const amount = { ...(minPrice === undefined ? {} : { min: minPrice }), ...(maxPrice === undefined ? {} : { max: maxPrice }) };
  return { currency: { equals: currency }, ...(Object.keys(amount).length > 0 ? { amount } : {}) };
}

/**
 * The name a cursor is signed for: a cursor pages only the list it was given for, in the same
 * order, category and range (today's names stay as they were, so cursors given out before go on).
 */
function listNameOf({ category, sort, currency, minPrice, maxPrice }: ListParameters): string {
  const parts = [LIST];
  if (category !== undefined) parts.push(`category:${category}`);
  if (orderOf(sort) !== undefined) parts.push(`sort:${sort}`);
  if (currency !== undefined) parts.push(`price:${currency}:${minPrice ?? ''}:${maxPrice ?? ''}`);
  return parts.join(':');
}

/** The read store's filter for a category (its index: FILTERABLE), or none. */
const filterOf = (category: string | undefined) => (category === undefined ? {} : { filter: { category } });

export function productReadHandlers({
  readStore,
  cursors,
  eventStore,
}: QueryDeps): Pick<Handlers<'query'>, 'listProducts' | 'pageProducts' | 'getProduct'> {
  // Products hold no personal data, so their representations may be kept (rendered.ts).
  const productJson = renderedJson<'products'>(productView);

  /** One cursor page; nextCursor is null on the last page. A cursor pages only the list it was given for. */
  async function cursorPage(token: string, l: number, field: string, parameters: ListParameters): Promise<string> {
    const list = listNameOf(parameters);
    const order = orderOf(parameters.sort);
    const keys = priceKeysOf(parameters);
    const narrowing = { ...filterOf(parameters.category), ...(order ? { order } : {}), ...(keys ? { keys } : {}) };
    // One more than asked says whether another page exists, without a second query.
    const { items } = await readStore.list('products', {
      limit: l + 1,
      ...narrowing,
      after: token === '' ? null : afterOf(list, token, field, order),
    });
    const pageItems = items.slice(0, l);
    const last = pageItems[pageItems.length - 1];
    const next = items.length > l && last ? positionOf('products', order, last) : undefined;
    return withItems(pageItems.map(productJson), {
      nextCursor: next === undefined ? null : cursors.encode(list, order === undefined ? next.seq : [...next.keys, next.seq]),
    });
  }

  /** Where a cursor continues: below a seq, newest first; after keys and a seq, in another order. */
  function afterOf(list: string, token: string, field: string, order: ListOrder | undefined): ListPosition {
    if (order === undefined) return { keys: [], seq: cursors.decode(list, token, field) };
    const position = cursors.decodeKeyed(list, token, field);
    return { keys: position.slice(0, -1), seq: position[position.length - 1] as number };
  }

  return {
    async listProducts({ ctx, query }) {
      const l = query.limit ?? DEFAULT_LIMIT;
      if (query.after !== undefined) {
        if (query.page !== undefined) throw problems.invalidField('page', 'page and after are two ways of paging: send one');
        answerJson(ctx, await cursorPage(query.after, l, 'after', query));
        return;
      }
      if (priceKeysOf(query) !== undefined) {
        throw problems.invalidField(
          'page',
          'a currency or a price range pages by cursor: send after (empty for the first page) instead of page',
        );
      }
      const { docs, ...rest } = await offsetList(readStore, 'products', query, filterOf(query.category).filter, orderOf(query.sort));
      answerJson(ctx, withItems(docs.map(productJson), rest));
    },
    async pageProducts({ ctx, query }) {
      answerJson(ctx, await cursorPage(query.cursor ?? '', query.limit ?? DEFAULT_LIMIT, 'cursor', query));
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
