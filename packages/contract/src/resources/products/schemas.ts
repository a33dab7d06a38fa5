// The product endpoints' shapes (see users.ts for who uses them), from the product's declaration.
import { z } from 'zod';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { SORTS } from '@eventide/kernel/list-orders.ts';
import { bodyOf } from '../../entities.ts';
import { limit, page } from '../../paging.ts';

export const createProductBody = PRODUCT.createInput;
export const productChanges = PRODUCT.changesInput;

/** Only the products of one category, as a product names it (exactly). */
const category = z.string().min(1).max(100).optional();

/** The orders a list of products can take (kernel/list-orders.ts): newest first, or by a key each way. */
type ProductOrder = keyof typeof SORTS.products;
export type ProductSort = 'newest' | ProductOrder | `-${ProductOrder}`;
export const PRODUCT_SORTS = ['newest', ...Object.keys(SORTS.products).flatMap((by) => [by, `-${by}`])] as [ProductSort, ...ProductSort[]];
const sort = z
  .enum(PRODUCT_SORTS)
  .optional()
  .describe('newest (the default); price or name, lowest first; -price or -name, highest first. Prices order by currency first.');
/** A price bound, in the currency's minor units as prices state them (cents for EUR). */
const priceBound = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, "must be a whole number of the currency's minor units, such as 1999 for 19.99 EUR")
  .transform(Number)
  .optional();
/** Narrowing to a currency and a price range: by cursor only (an offset page's total would count every match). */
const priced = {
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, such as EUR')
    .optional(),
  minPrice: priceBound,
  maxPrice: priceBound,
};
type Priced = { currency?: string | undefined; minPrice?: number | undefined; maxPrice?: number | undefined };
/** A price range states the currency its amounts are in, and its ends in order. */
const pricedRules = <T extends z.ZodType<Priced>>(query: T) =>
  query
    .refine((q) => q.currency !== undefined || (q.minPrice === undefined && q.maxPrice === undefined), {
      message: 'a price range is in one currency: send it with minPrice and maxPrice',
      path: ['currency'],
    })
    .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
      message: 'must not be below minPrice',
      path: ['maxPrice'],
    });

/** GET /products: offset pages, or cursor pages with `after`. */
export const productListQuery = pricedRules(
  z.strictObject({ page: page.optional(), limit: limit.optional(), after: z.string().optional(), category, sort, ...priced }),
);
/** GET /api/products: cursor pages. */
export const productCursorQuery = pricedRules(
  z.strictObject({ cursor: z.string().optional(), limit: limit.optional(), category, sort, ...priced }),
);

export const productBody = bodyOf(PRODUCT);
export type Product = z.infer<typeof productBody>;
