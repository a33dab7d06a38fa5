// Order writes: POST, PATCH and DELETE /orders, and the versioned POST, PUT and DELETE
// /v1/orders and /v2/orders.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import { requireUser, type SessionUser } from '@eventide/shared/auth/session.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { mayActFor } from '../http/authorize.ts';
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

  /** Someone else's order is not found, whatever its state. */
  const owned = (user: SessionUser, orderId: string, command: (s: OrderState) => OrderCommand) => (s: OrderState) => {
    if (s.status !== 'absent' && !mayActFor(user, s.userId)) throw problems.notFound(`order ${orderId}`);
    return command(s);
  };
  /** Orders are placed for oneself; another user, to a non-admin, does not exist. */
  const customer = async (user: SessionUser, userId: string) => {
    if (!mayActFor(user, userId)) throw problems.unprocessable('userId', 'no user has this id');
    await requireCustomer(store, userId);
  };

  const create = (prefix: string, represent: Represent) => async (ctx: Context) => {
    const user = requireUser(ctx);
    const body = await readBody(ctx, createBody, bodyLimit);
    await customer(user, body.userId);
    const price = await priced(body.lines);
    const { id: orderId, options } = newEntity(commandOptions(ctx, body));
    const result = await run(orderId, (s) => ({ type: 'CreateOrder', orderId, userId: body.userId, lines: price(s) ?? [] }), options);
    respondWrite(ctx, result, represent(result.state), { status: 201, location: `${prefix}/orders/${orderId}` });
  };

  const change = (represent: Represent) => async (ctx: Context) => {
    const user = requireUser(ctx);
    const orderId = entityId(ctx, 'id', 'order');
    const body = await readBody(ctx, changeBody, bodyLimit);
    const price = await priced(body.lines);
    const command = owned(user, orderId, (s) => ({ type: 'ChangeOrder', changes: { lines: price(s), status: body.status } }));
    const result = await run(orderId, command, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(result.state));
  };

  const replace = (represent: Represent) => async (ctx: Context) => {
    const user = requireUser(ctx);
    const orderId = entityId(ctx, 'id', 'order');
    const body = await readBody(ctx, replaceBody, bodyLimit);
    if (!mayActFor(user, body.userId)) throw problems.unprocessable('userId', 'no user has this id');
    const price = await priced(body.lines);
    const command = owned(user, orderId, (s) => ({
      type: 'ReplaceOrder',
      userId: body.userId,
      lines: price(s) ?? [],
      status: body.status,
    }));
    const result = await run(orderId, command, commandOptions(ctx, body));
    respondWrite(ctx, result, represent(result.state));
  };

  const remove = (represent: Represent) => async (ctx: Context) => {
    const user = requireUser(ctx);
    const orderId = entityId(ctx, 'id', 'order');
    const result = await run(
      orderId,
      owned(user, orderId, () => ({ type: 'DeleteOrder' })),
      commandOptions(ctx, null),
    );
    respondWrite(ctx, result, represent(result.state));
  };

  mountVersioned(router, 'orders', { create, change, replace, remove }, { v1: orderV1, v2: orderV2 });
  return router;
}
