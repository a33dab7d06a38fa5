// How a product looks in responses: as its declaration shows every entity (entities.ts).
import type { Product } from './schemas.ts';
import type { ProductState } from '@eventide/kernel/models/product/state.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { representationOf } from '../../entities.ts';

const represent = representationOf(PRODUCT);

export function productView(state: ProductState): Product {
  if (state.status === 'absent') throw new Error('a write left the product absent');
  return represent(state);
}
