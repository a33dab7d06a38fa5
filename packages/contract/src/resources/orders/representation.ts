// How an order looks in responses, per API version (docs/api.md#versioning): v2 gives money in
// integer minor units with its currency; v1 (deprecated) gave decimal amounts.
import type { Money } from '@eventide/kernel/entities/values.ts';
import type { OrderLine } from '@eventide/kernel/entities/order.ts';
import type { OrderV1, OrderV2 } from './schemas.ts';
import { toMajorUnits } from '@eventide/kernel/money.ts';
import type { OrderState } from '@eventide/kernel/models/order/state.ts';

type Known = Exclude<OrderState, { status: 'absent' }>;

export function known(state: OrderState): Known {
  if (state.status === 'absent') throw new Error('a write left the order absent');
  return state;
}

function lineTotal(line: OrderLine): Money {
  return { amount: line.unitPrice.amount * line.quantity, currency: line.unitPrice.currency };
}

export function orderTotal(lines: OrderLine[]): Money | null {
  const first = lines[0];
  if (!first) return null;
  return { amount: lines.reduce((sum, l) => sum + lineTotal(l).amount, 0), currency: first.unitPrice.currency };
}

function toDecimal(money: Money): number {
  return toMajorUnits(money.amount, money.currency);
}

export function orderV2(state: OrderState): OrderV2 {
  const order = known(state);
  return {
    orderId: order.orderId,
    userId: order.userId,
    status: order.status,
    lines: order.lines.map((l) => ({ ...l, lineTotal: lineTotal(l) })),
    total: orderTotal(order.lines),
    // A read model projected before payments were recorded lacks it: what unstated means.
    payment: order.payment ?? null,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    ...(order.status === 'deleted' ? { deletedAt: order.deletedAt } : {}),
    version: order.version,
  };
}

export function orderV1(state: OrderState): OrderV1 {
  const order = known(state);
  const total = orderTotal(order.lines);
  return {
    orderId: order.orderId,
    userId: order.userId,
    status: order.status,
    lines: order.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, unitPrice: toDecimal(l.unitPrice) })),
    total: total ? toDecimal(total) : 0,
    currency: total?.currency ?? null,
  };
}
