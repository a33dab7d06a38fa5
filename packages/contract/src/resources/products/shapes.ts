// What each of products/operations.ts's operations takes and answers.
import { z } from 'zod';
import { cursorPageOf, offsetPageOf } from '../../common.ts';
import { asOfQuery } from '../../history.ts';
import type { Shape } from '../../shape.ts';
import { entityId, history } from '../../shape-parts.ts';
import type { PRODUCT_OPERATIONS } from './operations.ts';
import { createProductBody, productBody, productChanges, productCursorQuery, productListQuery } from './schemas.ts';
import { searchBody, searchQuery } from './search.ts';

const product = { id: entityId('product') };

export const PRODUCT_SHAPES = {
  listProducts: {
    query: productListQuery,
    answers: {
      200: {
        description: 'an offset page, or a cursor page when `after` is given',
        body: z.union([offsetPageOf(productBody), cursorPageOf(productBody)]),
      },
    },
  },
  pageProducts: {
    query: productCursorQuery,
    answers: { 200: { description: 'a page; nextCursor is null on the last', body: cursorPageOf(productBody) } },
  },
  getProduct: {
    params: product,
    query: asOfQuery,
    answers: {
      200: { description: 'the product (as it was at `at`, when given); its version is the ETag', body: productBody, headers: ['ETag'] },
    },
  },
  productHistory: history(product, 'product'),
  createProduct: {
    body: createProductBody,
    answers: { 201: { description: 'created; Location, ETag and Event-Position are set', body: productBody } },
  },
  changeProduct: { params: product, body: productChanges, answers: { 200: { description: 'changed', body: productBody } } },
  deleteProduct: {
    params: product,
    answers: { 200: { description: 'deleted; the product as it was, with deletedAt', body: productBody } },
  },
  search: { query: searchQuery, answers: { 200: { description: 'the best matches', body: searchBody } } },
} as const satisfies { [K in keyof typeof PRODUCT_OPERATIONS]: Shape };
