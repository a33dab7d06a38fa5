// Product commands and the pure decisions on them.
import { refuse, requireLive } from '@eventide/kernel/models/refusal.ts';
import { productModel, type ProductDetails, type ProductEvent, type ProductState } from '@eventide/kernel/models/product/state.ts';
import type { Aggregate } from '../aggregate.ts';
import { MAX_PRODUCT_IMAGES, type ProductImage } from '@eventide/kernel/entities/product-image.ts';

export type ProductCommand =
  | { type: 'CreateProduct'; productId: string; details: ProductDetails }
  | { type: 'ChangeProduct'; changes: Partial<ProductDetails> }
  | { type: 'AddProductImage'; image: ProductImage }
  | { type: 'DeleteProduct' };

type Existing = Extract<ProductState, { status: 'active' }>;

const requireActive = (state: ProductState): Existing => requireLive(state, 'this product');

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A product's pictures come by upload, one at a time: a create states none, and a change may only
 * reorder or drop the ones the product has (an id it does not have would show nothing).
 */
function requireKnownImages(images: readonly ProductImage[] | undefined, current: readonly ProductImage[]): void {
  if (images === undefined) return;
  for (const [i, image] of images.entries()) {
    const known = current.find((had) => had.imageId === image.imageId);
    if (!known || !same(known, image))
      throw refuse.unprocessable(`images.${i}`, "is not one of this product's pictures: upload a picture to add it");
    if (images.findIndex((other) => other.imageId === image.imageId) !== i) throw refuse.invalid(`images.${i}`, 'names a picture twice');
  }
}

export function decide(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct':
      if (state.status !== 'absent') throw refuse.conflict(`product ${command.productId} already exists`);
      requireKnownImages(command.details.images, []);
      return [{ type: 'product:created', data: { productId: command.productId, ...command.details } }];
    case 'AddProductImage': {
      const current = requireActive(state);
      if (current.images.some((had) => had.imageId === command.image.imageId)) {
        throw refuse.conflict('this product has this picture already', {
          fields: [{ field: 'images', message: 'has this picture already' }],
        });
      }
      if (current.images.length >= MAX_PRODUCT_IMAGES) {
        throw refuse.unprocessable('images', `this product has ${MAX_PRODUCT_IMAGES} pictures, the most it may: drop one to add another`);
      }
      return [{ type: 'product:updated', data: { productId: current.productId, changes: { images: [...current.images, command.image] } } }];
    }
    case 'ChangeProduct': {
      const current = requireActive(state);
      requireKnownImages(command.changes.images, current.images);
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([key, value]) => !same(value, current[key as keyof ProductDetails])),
      ) as Partial<ProductDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'product:updated', data: { productId: current.productId, changes } }];
    }
    case 'DeleteProduct':
      return [{ type: 'product:deleted', data: { productId: requireActive(state).productId } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const productAggregate: Aggregate<ProductState, ProductCommand, ProductEvent> = { ...productModel, decide };
