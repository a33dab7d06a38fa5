// The product operations of the command service (createProduct, changeProduct, deleteProduct:
// api/operations.ts, where they are an admin's).
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Handlers } from '@eventide/shared/http/mount.ts';
import { productView } from '@eventide/shared/models/product/representation.ts';
import { handle, type CommandOptions } from '../handle.ts';
import { commandOptions, newEntity } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import { productAggregate, type ProductCommand } from './decide.ts';

export function productHandlers({
  store,
}: {
  store: EventStore;
}): Pick<Handlers<'command'>, 'createProduct' | 'changeProduct' | 'deleteProduct'> {
  const run = (productId: string, command: ProductCommand, options: CommandOptions) =>
    handle(store, productAggregate, productId, command, options);
  return {
    async createProduct(input) {
      const { id: productId, options } = newEntity(commandOptions(input, input.body));
      const result = await run(productId, { type: 'CreateProduct', productId, details: input.body }, options);
      respondWrite(input.ctx, result, productView(result.state), { status: 201, location: `/products/${productId}` });
    },
    async changeProduct(input) {
      const result = await run(input.params.id, { type: 'ChangeProduct', changes: input.body }, commandOptions(input, input.body));
      respondWrite(input.ctx, result, productView(result.state));
    },
    async deleteProduct(input) {
      const result = await run(input.params.id, { type: 'DeleteProduct' }, commandOptions(input, null));
      respondWrite(input.ctx, result, productView(result.state));
    },
  };
}
