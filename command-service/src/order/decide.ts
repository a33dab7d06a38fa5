// Order commands and the pure decisions on them. Lines arrive priced: the caller looked the
// products up, so deciding needs nothing but the command and the state.
import type { OrderLine, OrderStatus } from '@eventide/shared/events/catalogue.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { orderModel, type ExistingOrder, type OrderEvent, type OrderState } from '@eventide/shared/models/order/state.ts';
import { requireLive, type Aggregate } from '../aggregate.ts';
import { DELETABLE, transitionRefusal } from './status.ts';

export type OrderCommand =
  | { type: 'CreateOrder'; orderId: string; userId: string; lines: OrderLine[] }
  | { type: 'ChangeOrder'; changes: { lines?: OrderLine[]; status?: OrderStatus } }
  | { type: 'ReplaceOrder'; userId: string; lines: OrderLine[]; status: OrderStatus }
  | { type: 'DeleteOrder' };

const requireExisting = (state: OrderState): ExistingOrder => requireLive(state, 'this order');

/** One line per product, one currency per order. */
function checkLines(lines: OrderLine[]): void {
  const seen = new Set<string>();
  const currency = lines[0]?.unitPrice.currency;
  lines.forEach((line, i) => {
    if (seen.has(line.productId)) {
      throw problems.unprocessable(`lines.${i}.productId`, "this product is already on another line; raise that line's quantity instead");
    }
    seen.add(line.productId);
    if (line.unitPrice.currency !== currency) {
      throw problems.unprocessable(
        `lines.${i}.productId`,
        `is priced in ${line.unitPrice.currency}, but the order's first line is in ${currency}`,
      );
    }
  });
}

function sameLines(a: OrderLine[], b: OrderLine[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function change(state: OrderState, wanted: { lines?: OrderLine[] | undefined; status?: OrderStatus | undefined }): OrderEvent[] {
  const current = requireExisting(state);
  const changes: { lines?: OrderLine[]; status?: OrderStatus } = {};
  if (wanted.lines && !sameLines(wanted.lines, current.lines)) {
    if (current.status !== 'draft') {
      throw problems.conflict(`the order is ${current.status}: only a draft order's lines can change`, [
        { field: 'lines', message: `cannot change once the order is ${current.status}` },
      ]);
    }
    checkLines(wanted.lines);
    changes.lines = wanted.lines;
  }
  if (wanted.status && wanted.status !== current.status) {
    const refusal = transitionRefusal(current.status, wanted.status, (changes.lines ?? current.lines).length);
    if (refusal) throw problems.conflict(refusal, [{ field: 'status', message: refusal }]);
    changes.status = wanted.status;
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'order:updated', data: { orderId: current.orderId, changes } }];
}

export function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'CreateOrder':
      if (state.status !== 'absent') throw problems.conflict(`order ${command.orderId} already exists`);
      checkLines(command.lines);
      return [{ type: 'order:created', data: { orderId: command.orderId, userId: command.userId, lines: command.lines, status: 'draft' } }];
    case 'ChangeOrder':
      return change(state, command.changes);
    case 'ReplaceOrder': {
      const current = requireExisting(state);
      if (command.userId !== current.userId) throw problems.unprocessable('userId', "an order's user cannot change");
      return change(state, { lines: command.lines, status: command.status });
    }
    case 'DeleteOrder': {
      const current = requireExisting(state);
      if (!DELETABLE.includes(current.status)) {
        throw problems.conflict(
          `the order is ${current.status}: cancel it before deleting it (only draft or cancelled orders can be deleted)`,
        );
      }
      return [{ type: 'order:deleted', data: { orderId: current.orderId } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const orderAggregate: Aggregate<OrderState, OrderCommand, OrderEvent> = { ...orderModel, decide };
