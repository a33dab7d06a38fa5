// search: products ranked by relevance over name and description. q is matched word by word
// (each may be cut short, a long one may have a typo: docs/api.md#search); the mount refuses
// fewer than 3 characters (400) and spends the search limit.
import type { SearchBody } from '@eventide/contract/resources/products/search.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import type { QueryDeps } from './context.ts';

export function searchHandlers({ productSearch }: QueryDeps): Pick<Handlers<'query'>, 'search'> {
  return {
    async search({ ctx, query }) {
      const { hits, complete } = await productSearch.search(query.q, query.limit ?? 20);
      const body: SearchBody = {
        q: query.q,
        items: hits.map((h) => ({ ...productView(h.doc.fields), score: h.score })),
        complete,
      };
      ctx.body = body;
    },
  };
}
