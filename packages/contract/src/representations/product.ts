// How a product looks in responses.
import type { Product } from '../products.ts';
import type { ProductState } from '@eventide/kernel/models/product/state.ts';

type Known = Exclude<ProductState, { status: 'absent' }>;

export function productView(state: ProductState): Product {
  if (state.status === 'absent') throw new Error('a write left the product absent');
  const known: Known = state;
  return {
    productId: known.productId,
    name: known.name,
    description: known.description,
    price: known.price,
    // Documents projected before products had tax rates have none: not stated.
    taxRate: known.taxRate ?? null,
    sku: known.sku,
    category: known.category,
    createdAt: known.createdAt,
    updatedAt: known.updatedAt,
    ...(known.status === 'deleted' ? { deletedAt: known.deletedAt } : {}),
    version: known.version,
  };
}
