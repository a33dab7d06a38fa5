// Order writes: POST, PATCH and DELETE /orders, and the versioned POST, PUT and DELETE
// /v1/orders and /v2/orders.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import { principalOf, requireUser } from '@eventide/shared/auth/session.ts';
import { entityId } from '../http/conditions.ts';
import { commandOptions, newEntity } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import { mountVersioned } from '../http/versioning.ts';
import { handle, type CommandOptions } from '../handle.ts';
import type { OrderCommand } from './decide.ts';
import type { OrderState } from '@eventide/shared/models/order/state.ts';
import { orderAggregate } from './decide.ts';
import { currentPrices, priceLines, requireCustomer, type RequestedLine } from './pricing.ts';
import { orderV1, orderV2 } from '@eventide/shared/models/order/representation.ts';

import { createOrderBody as createBody, orderChanges as changeBody, replaceOrderBody as replaceBody } from '@eventide/shared/api/orders.ts';

type Represent = (state: OrderState) => unknown;

export function orderRoutes({ store, bodyLimit }: { store: EventStore; bodyLimit: number }): Router {
  const router = new Router();

  async function run(orderId: string, command: OrderCommand | ((s: OrderState) => OrderCommand), options: CommandOptions) {
    return handle(store, orderAggregate, orderId, command, options);
  }

  /** Lines as the decider wants them: priced, with prices kept for products already ordered. */
  async function priced(requested: RequestedLine[] | undefined) {
    const prices = requested ? await currentPrices(store, requested) : undefined;
    return (order: OrderState) => (requested && prices ? priceLines(requested, prices, order) : undefined);
  }

  const create = (prefix: string, represent: Represent) => async (ctx: Context) => {
    const by = principalOf(requireUser(ctx));
    const body = await readBody(ctx, createBody, bodyLimit);
    await requireCustomer(store, body.userId, by);
    const price = await priced(body.lines);
    const { id: orderId, options } = newEntity(commandOptions(ctx, body));
    const result = await run(orderId, (s) => ({ type: 'CreateOrder', by, orderId, userId: body.userId, lines: price(s) ?? [] }), options);
    respondWrite(ctx, result, represent(result.state), { status: 201, location: `${prefix}/orders/${orderId}` });
  };

  const change = (represent: Represent) => async (ctx: Context) => {
    const by = principalOf(requireUser(ctx));
    const orderId = entityId(ctx, 'id', 'order');
    const body = await readBody(ctx, changeBody, bodyLimit);
    const price = await priced(body.lines);
    const command = (s: OrderState): OrderCommand => ({ type: 'ChangeOrder', by, changes: { lines: price(s), status: body.status } });
    const result = await run(orderId, command, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(result.state));
  };

  const replace = (represent: Represent) => async (ctx: Context) => {
    const by = principalOf(requireUser(ctx));
    const orderId = entityId(ctx, 'id', 'order');
    const body = await readBody(ctx, replaceBody, bodyLimit);
    const price = await priced(body.lines);
    const command = (s: OrderState): OrderCommand => ({
      type: 'ReplaceOrder',
      by,
      userId: body.userId,
      lines: price(s) ?? [],
      status: body.status,
    });
    const result = await run(orderId, command, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(result.state));
  };

  const remove = (represent: Represent) => async (ctx: Context) => {
    const by = principalOf(requireUser(ctx));
    const orderId = entityId(ctx, 'id', 'order');
    const result = await run(orderId, { type: 'DeleteOrder', by }, commandOptions(ctx, null));
    respondWrite(ctx, result, represent(result.state));
  };

  mountVersioned(router, 'orders', { create, change, replace, remove }, { v1: orderV1, v2: orderV2 });
  return router;
}
