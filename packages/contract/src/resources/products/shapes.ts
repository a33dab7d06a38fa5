// What each of products/operations.ts's operations takes and answers.
import { z } from 'zod';
import { cursorPageOf, offsetPageOf } from '../../common.ts';
import { asOfQuery } from '../../history.ts';
import type { Shape } from '../../shape.ts';
import { entityId, history } from '../../shape-parts.ts';
import type { PRODUCT_OPERATIONS } from './operations.ts';
import { createProductBody, productBody, productChanges, productCursorQuery, productListQuery } from './schemas.ts';
import { searchBody, searchQuery } from './search.ts';
import { IMAGE_RENDITIONS, type ImageRendition, productImage } from '@eventide/kernel/entities/product-image.ts';
import { MAX_PICTURE_BYTES, MAX_PICTURE_PIXELS, PICTURE_TYPES } from '@eventide/kernel/entities/product-image-bounds.ts';

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
  addProductImage: {
    params: product,
    upload: {
      mediaTypes: PICTURE_TYPES,
      maxBytes: MAX_PICTURE_BYTES,
      description: `The picture's bytes. At most ${MAX_PICTURE_PIXELS.toLocaleString('en')} pixels; its metadata (places, dates, cameras) is not kept.`,
    },
    answers: {
      201: {
        description: 'added: the product, its new picture last; Location is the picture at its large size',
        body: productBody,
        headers: ['Location'],
      },
    },
  },
  productImage: {
    params: {
      imageId: { schema: productImage.shape.imageId, names: 'picture' },
      size: { schema: z.enum(Object.keys(IMAGE_RENDITIONS) as [ImageRendition, ...ImageRendition[]]), names: 'picture size' },
    },
    answers: {
      200: {
        description: `the picture, scaled down to ${Object.entries(IMAGE_RENDITIONS)
          .map(([size, width]) => `${width} pixels wide (${size})`)
          .join(' or ')}, never up`,
        contentType: 'image/webp',
        headers: ['ETag'],
      },
      304: { description: 'not modified: the ETag sent is the picture' },
    },
  },
  deleteProduct: {
    params: product,
    answers: { 200: { description: 'deleted; the product as it was, with deletedAt', body: productBody } },
  },
  search: { query: searchQuery, answers: { 200: { description: 'the best matches', body: searchBody } } },
} as const satisfies { [K in keyof typeof PRODUCT_OPERATIONS]: Shape };
