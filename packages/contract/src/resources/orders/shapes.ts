// What each of orders/operations.ts's operations takes and answers.
import type { Representations, Shape } from '../../shape.ts';
import { entityId, history, versionedShapes } from '../../shape-parts.ts';
import type { ORDER_OPERATIONS } from './operations.ts';
import { orderV1, orderV2 } from './representation.ts';
import { createOrderBody, orderChanges, orderListQuery, orderV1Body, orderV2Body, replaceOrderBody } from './schemas.ts';

const order = { id: entityId('order') };
const orders: Representations<Parameters<typeof orderV2>[0]> = {
  schema: { v1: orderV1Body, v2: orderV2Body },
  represent: { v1: orderV1, v2: orderV2 },
};
const orderShapes = versionedShapes('order', {
  params: order,
  list: orderListQuery,
  create: createOrderBody,
  change: orderChanges,
  replace: replaceOrderBody,
  representations: orders,
  deleted: 'deleted; the order as it was, with deletedAt',
});

export const ORDER_SHAPES = {
  listOrders: orderShapes.list,
  getOrder: orderShapes.get,
  orderHistory: history(order, 'order'),
  createOrder: orderShapes.create,
  changeOrder: orderShapes.change,
  replaceOrder: orderShapes.replace,
  deleteOrder: orderShapes.delete,
} as const satisfies { [K in keyof typeof ORDER_OPERATIONS]: Shape };
