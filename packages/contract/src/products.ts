// The product endpoints' shapes (see users.ts for who uses them).
import { z } from 'zod';
import { money } from '@eventide/kernel/events/catalogue.ts';
import { text } from './text.ts';
import { timestamps } from './common.ts';
import { limit, page } from './paging.ts';
import { price, taxRate } from './price.ts';

const details = {
  name: text({ min: 1, max: 200 }),
  description: text({ max: 5000, multiline: true }),
  price,
  taxRate,
  sku: text({ min: 1, max: 64 }).nullable(),
  category: text({ min: 1, max: 100 }).nullable(),
};
export const createProductBody = z.strictObject({
  ...details,
  description: details.description.default(''),
  taxRate: details.taxRate.default(null),
  sku: details.sku.default(null),
  category: details.category.default(null),
});
export const productChanges = z
  .strictObject(details)
  .partial()
  .refine((c) => Object.keys(c).length > 0, `send at least one of: ${Object.keys(details).join(', ')}`);

/** GET /products: offset pages, or cursor pages with `after`. */
export const productListQuery = z.strictObject({ page: page.optional(), limit: limit.optional(), after: z.string().optional() });
/** GET /api/products: cursor pages. */
export const productCursorQuery = z.strictObject({ cursor: z.string().optional(), limit: limit.optional() });

export const productBody = z.strictObject({
  productId: z.string(),
  name: z.string(),
  description: z.string(),
  price: money,
  taxRate: z.number().nullable(),
  sku: z.string().nullable(),
  category: z.string().nullable(),
  ...timestamps,
});
export type Product = z.infer<typeof productBody>;
