// The product use cases, for every entry point (the HTTP handlers, the seed).
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { ProductDetails } from '@eventide/kernel/models/product/state.ts';
import { handle, newEntity, type CommandOptions } from '../handle.ts';
import { productAggregate } from './decide.ts';
import type { ProductImage } from '@eventide/kernel/entities/product-image.ts';

export function productCommands(store: EventStore) {
  return {
    async create(details: ProductDetails, options: CommandOptions) {
      const { id, options: createOptions } = newEntity(options);
      const result = await handle(store, productAggregate, id, { type: 'CreateProduct', productId: id, details }, createOptions);
      return { id, result };
    },
    change: (productId: string, changes: Partial<ProductDetails>, options: CommandOptions) =>
      handle(store, productAggregate, productId, { type: 'ChangeProduct', changes }, options),
    addImage: (productId: string, image: ProductImage, options: CommandOptions) =>
      handle(store, productAggregate, productId, { type: 'AddProductImage', image }, options),
    delete: (productId: string, options: CommandOptions) => handle(store, productAggregate, productId, { type: 'DeleteProduct' }, options),
  };
}

export type ProductCommands = ReturnType<typeof productCommands>;
