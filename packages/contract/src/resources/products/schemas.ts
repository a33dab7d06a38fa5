// The product endpoints' shapes (see users.ts for who uses them), from the product's declaration.
import { z } from 'zod';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { bodyOf } from '../../entities.ts';
import { limit, page } from '../../paging.ts';

export const createProductBody = PRODUCT.createInput;
export const productChanges = PRODUCT.changesInput;

/** Only the products of one category, as a product names it (exactly). */
const category = z.string().min(1).max(100).optional();
/** GET /products: offset pages, or cursor pages with `after`. */
export const productListQuery = z.strictObject({ page: page.optional(), limit: limit.optional(), after: z.string().optional(), category });
/** GET /api/products: cursor pages. */
export const productCursorQuery = z.strictObject({ cursor: z.string().optional(), limit: limit.optional(), category });

export const productBody = bodyOf(PRODUCT);
export type Product = z.infer<typeof productBody>;
