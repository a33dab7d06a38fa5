// Order commands and the pure decisions on them. Lines arrive priced: the caller looked the
// products up, so deciding needs nothing but the command and the state. Who may take which step
// is the order's life cycle (packages/kernel/src/models/order/life-cycle.ts); every command says who acts.
import type { OrderLine, OrderPayment, OrderStatus } from '@eventide/kernel/entities/order.ts';
import {
  maySee,
  requireDeletable,
  requireLinesMayChange,
  requireMayOrderFor,
  requireStep,
} from '@eventide/kernel/models/order/life-cycle.ts';
import { orderModel, type ExistingOrder, type OrderEvent, type OrderState } from '@eventide/kernel/models/order/state.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { refuse, requireLive } from '@eventide/kernel/models/refusal.ts';
import type { Aggregate } from '../aggregate.ts';

export type OrderCommand = { by: Principal } & (
  | { type: 'CreateOrder'; orderId: string; userId: string; lines: OrderLine[] }
  | { type: 'ChangeOrder'; changes: OrderChanges }
  | { type: 'ReplaceOrder'; userId: string; lines: OrderLine[]; status: OrderStatus }
  | { type: 'DeleteOrder' }
);

/** What a change may ask for: lines, a step, and with the step to paid its payment. */
export interface OrderChanges {
  lines?: OrderLine[] | undefined;
  status?: OrderStatus | undefined;
  payment?: OrderPayment | null | undefined;
}

/** The order, when it exists and `who` may see it: to anyone else it is not found, whatever its state. */
function requireVisible(state: OrderState, who: Principal): ExistingOrder {
  if (state.status !== 'absent' && !maySee(state.userId, who)) throw refuse.notFound('this order');
  return requireLive(state, 'this order');
}

/** One line per product, one currency per order. */
function checkLines(lines: OrderLine[]): void {
  const seen = new Set<string>();
  const currency = lines[0]?.unitPrice.currency;
  lines.forEach((line, i) => {
    if (seen.has(line.productId)) {
      throw refuse.unprocessable(`lines.${i}.productId`, "this product is already on another line; raise that line's quantity instead");
    }
    seen.add(line.productId);
    if (line.unitPrice.currency !== currency) {
      throw refuse.unprocessable(
        `lines.${i}.productId`,
        `is priced in ${line.unitPrice.currency}, but the order's first line is in ${currency}`,
      );
    }
  });
}

function sameLines(a: OrderLine[], b: OrderLine[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the order's lines come to, in minor units of their one currency. */
function totalOf(lines: OrderLine[]): { amount: number; currency: string } | undefined {
  const first = lines[0];
  return first && { amount: lines.reduce((sum, l) => sum + l.quantity * l.unitPrice.amount, 0), currency: first.unitPrice.currency };
}

/**
 * A payment is recorded with the step to paid, and is the order's total: a payment of another sum
 * is not this order's (a refund or a part payment is not what `paid` means). The step without one
 * is still taken, as clients written before payments were recorded take it: the order then shows
 * none.
 */
function recordedPayment(payment: OrderPayment | null | undefined, toPaid: boolean, lines: OrderLine[]): OrderPayment | undefined {
  if (payment === undefined || payment === null) return undefined;
  if (!toPaid) throw refuse.unprocessable('payment', 'is recorded with the step to paid: send it with status "paid"');
  const total = totalOf(lines)!;
  if (payment.amount.currency !== total.currency || payment.amount.amount !== total.amount) {
    throw refuse.unprocessable('payment.amount', `must be the order's total: ${total.amount} in ${total.currency}'s minor units`);
  }
  return payment;
}

function change(current: ExistingOrder, wanted: OrderChanges, by: Principal): OrderEvent[] {
  const changes: { lines?: OrderLine[]; status?: OrderStatus; payment?: OrderPayment } = {};
  if (wanted.lines && !sameLines(wanted.lines, current.lines)) {
    requireLinesMayChange({ ...current, lineCount: current.lines.length });
    checkLines(wanted.lines);
    changes.lines = wanted.lines;
  }
  if (wanted.status && wanted.status !== current.status) {
    requireStep({ userId: current.userId, status: current.status, lineCount: (changes.lines ?? current.lines).length }, wanted.status, by);
    changes.status = wanted.status;
  }
  const payment = recordedPayment(wanted.payment, changes.status === 'paid', changes.lines ?? current.lines);
  if (payment) changes.payment = payment;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'order:updated', data: { orderId: current.orderId, changes } }];
}

export function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'CreateOrder':
      requireMayOrderFor(command.userId, command.by);
      if (state.status !== 'absent') throw refuse.conflict(`order ${command.orderId} already exists`);
      checkLines(command.lines);
      return [
        {
          type: 'order:created',
          data: { orderId: command.orderId, userId: command.userId, lines: command.lines, status: 'draft', payment: null },
        },
      ];
    case 'ChangeOrder':
      return change(requireVisible(state, command.by), command.changes, command.by);
    case 'ReplaceOrder': {
      const current = requireVisible(state, command.by);
      if (command.userId !== current.userId) throw refuse.unprocessable('userId', "an order's user cannot change");
      return change(current, { lines: command.lines, status: command.status }, command.by);
    }
    case 'DeleteOrder': {
      const current = requireVisible(state, command.by);
      requireDeletable(current);
      return [{ type: 'order:deleted', data: { orderId: current.orderId } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const orderAggregate: Aggregate<OrderState, OrderCommand, OrderEvent> = { ...orderModel, decide };
