// GET /search's shapes: the query the service checks, and what it answers. The client's search
// as you type asks only for what this accepts (SEARCH_MIN characters and more).
import { z } from 'zod';
import { characters } from '@eventide/kernel/characters.ts';
import { positiveInt } from '../../paging.ts';
import { productBody } from './schemas.ts';

import { words } from '@eventide/kernel/search/words.ts';
import { SEARCH_MAX, SEARCH_MAX_LIMIT, SEARCH_MAX_WORDS, SEARCH_MIN } from '@eventide/kernel/search/limits.ts';

export { SEARCH_MAX, SEARCH_MAX_LIMIT, SEARCH_MAX_WORDS, SEARCH_MIN };

export const searchQuery = z.strictObject({
  q: z
    .string()
    .transform((q) => q.trim())
    .refine((q) => characters(q) >= SEARCH_MIN, `must be at least ${SEARCH_MIN} characters, so that a search narrows something down`)
    .refine((q) => characters(q) <= SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`)
    .refine((q) => words(q).length <= SEARCH_MAX_WORDS, `must have at most ${SEARCH_MAX_WORDS} words`),
  limit: positiveInt(SEARCH_MAX_LIMIT).optional(),
});

export const searchBody = z.strictObject({
  q: z.string(),
  /** Best match first; `score` orders them and means nothing on its own. */
  items: z.array(productBody.extend({ score: z.number() })),
  // Shown in /openapi.json; docs/api.md#search says when a search stops at its bound.
  complete: z.boolean().meta({
    description:
      'false when the search stopped at its bound on work before it had read every product that could hold the words: an older product that holds them all may be missing; a more specific query is read to its end',
  }),
});
export type SearchBody = z.infer<typeof searchBody>;
