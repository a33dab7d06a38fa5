// GET /search?q: products ranked by relevance over name and description. q is matched word by
// word (each may be cut short, a long one may have a typo: docs/api.md#search); fewer than 3
// characters is a 400.
import Router from '@koa/router';
import { productView } from '@eventide/shared/models/product/representation.ts';
import type { ProductState } from '@eventide/shared/models/product/state.ts';
import { rateLimit } from '@eventide/shared/auth/rate-limit.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { searchQuery, type SearchBody } from '@eventide/shared/api/search.ts';
import { reader, type QueryDeps } from './context.ts';

export function searchRoutes({ readStore, progress, limiters, limits }: QueryDeps): Router {
  const router = new Router();
  const limit = rateLimit(limiters, { name: 'search', points: limits.searchPerSecond, duration: 1 });
  reader(
    router,
    progress,
    limit,
  )('/search', async (ctx) => {
    const query = parseQuery(ctx, searchQuery);
    const hits = await readStore.search(query.q, query.limit ?? 20);
    const body: SearchBody = {
      q: query.q,
      items: hits.map((h) => ({ ...productView(h.doc.fields as unknown as ProductState), score: h.score })),
    };
    ctx.body = body;
  });
  return router;
}
