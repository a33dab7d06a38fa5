// GET /search?q: products ranked by relevance over name and description. q is matched
// literally, word by word (the last word also as a prefix); fewer than 3 characters is a 400.
import Router from '@koa/router';
import { z } from 'zod';
import { productView } from '@eventide/shared/models/product/representation.ts';
import type { ProductState } from '@eventide/shared/models/product/state.ts';
import { rateLimit } from '@eventide/shared/auth/rate-limit.ts';
import { characters } from '@eventide/shared/http/text.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { positiveInt } from '../params.ts';
import { reader, type QueryDeps } from './context.ts';

export const SEARCH_MIN = 3;
export const SEARCH_MAX = 200;
export const SEARCH_MAX_LIMIT = 50;

const searchQuery = z.strictObject({
  q: z
    .string()
    .transform((q) => q.trim())
    .refine((q) => characters(q) >= SEARCH_MIN, `must be at least ${SEARCH_MIN} characters, so that a search narrows something down`)
    .refine((q) => characters(q) <= SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`),
  limit: positiveInt(SEARCH_MAX_LIMIT).optional(),
});

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
    ctx.body = { q: query.q, items: hits.map((h) => ({ ...productView(h.doc.fields as unknown as ProductState), score: h.score })) };
  });
  return router;
}
