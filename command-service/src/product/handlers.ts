// The product operations of the command service (createProduct, changeProduct, deleteProduct,
// addProductImage: contract/resources/products/operations.ts, where they are an admin's).
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { productView } from '@eventide/contract/resources/products/representation.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { ProductCommands } from './products.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import { makePicture } from './pictures.ts';

export function productHandlers(
  products: ProductCommands,
  images: ImageStore,
): Pick<Handlers<'command'>, 'createProduct' | 'changeProduct' | 'deleteProduct' | 'addProductImage'> {
  return {
    async createProduct(input) {
      const { id, result } = await products.create(input.body, commandOptions(input, input.body));
      respondWrite(input.ctx, result, productView(result.state), { status: 201, location: `/products/${id}` });
    },
    async changeProduct(input) {
      const result = await products.change(input.params.id, input.body, commandOptions(input, input.body));
      respondWrite(input.ctx, result, productView(result.state));
    },
    async addProductImage(input) {
      const picture = await makePicture(input.body, input.ctx.request.type);
      // Kept before the event names it. A picture the product then refuses stays kept, named by
      // no event: its id is its bytes', so another product may name it, and it is never deleted.
      await images.put(picture.image.imageId, picture.renditions);
      const result = await products.addImage(input.params.id, picture.image, commandOptions(input, picture.image.imageId));
      const location = `/images/${picture.image.imageId}/large`;
      respondWrite(input.ctx, result, productView(result.state), { status: 201, location });
    },
    async deleteProduct(input) {
      const result = await products.delete(input.params.id, commandOptions(input, null));
      respondWrite(input.ctx, result, productView(result.state));
    },
  };
}
