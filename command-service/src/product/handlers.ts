// The product operations of the command service (createProduct, changeProduct, deleteProduct:
// api/operations.ts, where they are an admin's).
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { ProductCommands } from './products.ts';

export function productHandlers(products: ProductCommands): Pick<Handlers<'command'>, 'createProduct' | 'changeProduct' | 'deleteProduct'> {
  return {
    async createProduct(input) {
      const { id, result } = await products.create(input.body, commandOptions(input, input.body));
      respondWrite(input.ctx, result, productView(result.state), { status: 201, location: `/products/${id}` });
    },
    async changeProduct(input) {
      const result = await products.change(input.params.id, input.body, commandOptions(input, input.body));
      respondWrite(input.ctx, result, productView(result.state));
    },
    async deleteProduct(input) {
      const result = await products.delete(input.params.id, commandOptions(input, null));
      respondWrite(input.ctx, result, productView(result.state));
    },
  };
}
