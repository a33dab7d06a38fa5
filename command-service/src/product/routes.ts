// Product writes: POST /products, PATCH and DELETE /products/{productId}.
import Router from '@koa/router';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import { createProductBody as createBody, productChanges as changeBody } from '@eventide/shared/api/products.ts';
import { requireAdmin } from '../http/authorize.ts';
import { handle, type CommandOptions } from '../handle.ts';
import { commandOptions, newEntity } from '../http/command-options.ts';
import { entityId } from '../http/conditions.ts';
import { respondWrite } from '../http/respond.ts';
import type { ProductCommand } from './decide.ts';
import { productAggregate } from './decide.ts';
import { productView } from '@eventide/shared/models/product/representation.ts';

export function productRoutes({ store, bodyLimit }: { store: EventStore; bodyLimit: number }): Router {
  const router = new Router();

  async function run(productId: string, command: ProductCommand, options: CommandOptions) {
    return handle(store, productAggregate, productId, command, options);
  }

  router.post('/products', async (ctx) => {
    requireAdmin(ctx);
    const body = await readBody(ctx, createBody, bodyLimit);
    const { id: productId, options } = newEntity(commandOptions(ctx, body));
    const result = await run(productId, { type: 'CreateProduct', productId, details: body }, options);
    respondWrite(ctx, result, productView(result.state), { status: 201, location: `/products/${productId}` });
  });

  router.patch('/products/:id', async (ctx) => {
    requireAdmin(ctx);
    const productId = entityId(ctx, 'id', 'product');
    const body = await readBody(ctx, changeBody, bodyLimit);
    const result = await run(productId, { type: 'ChangeProduct', changes: body }, commandOptions(ctx, body));
    respondWrite(ctx, result, productView(result.state));
  });

  router.delete('/products/:id', async (ctx) => {
    requireAdmin(ctx);
    const productId = entityId(ctx, 'id', 'product');
    const result = await run(productId, { type: 'DeleteProduct' }, commandOptions(ctx, null));
    respondWrite(ctx, result, productView(result.state));
  });
  return router;
}
