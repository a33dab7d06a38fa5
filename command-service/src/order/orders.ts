// The order use cases, for every entry point (the HTTP handlers, the seed): each looks up what
// the order refers to (its customer, its products' prices: pricing.ts) and runs the command.
// Who may take which step is the decider's to refuse, by the life cycle, from `by`.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { OrderPayment, OrderStatus } from '@eventide/kernel/entities/order.ts';
import type { OrderState } from '@eventide/kernel/models/order/state.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { handle, newEntity, type CommandOptions, type WriteResult } from '../handle.ts';
import { orderAggregate, type OrderCommand } from './decide.ts';
import { currentPrices, priceLines, requireCustomer, type RequestedLine } from './pricing.ts';

export interface Created<State> {
  id: string;
  result: WriteResult<State>;
}

export function orderCommands(store: EventStore) {
  const run = (orderId: string, command: OrderCommand | ((s: OrderState) => OrderCommand), options: CommandOptions) =>
    handle(store, orderAggregate, orderId, command, options);

  /** Lines as the decider wants them: priced, with prices kept for products already ordered. */
  async function priced(requested: RequestedLine[] | undefined) {
    const prices = requested ? await currentPrices(store, requested) : undefined;
    return (order: OrderState) => (requested && prices ? priceLines(requested, prices, order) : undefined);
  }

  return {
    async create(order: { by: Principal; userId: string; lines: RequestedLine[] }, options: CommandOptions): Promise<Created<OrderState>> {
      const { by, userId } = order;
      await requireCustomer(store, userId, by);
      const price = await priced(order.lines);
      const { id, options: createOptions } = newEntity(options);
      const result = await run(id, (s) => ({ type: 'CreateOrder', by, orderId: id, userId, lines: price(s) ?? [] }), createOptions);
      return { id, result };
    },

    async change(
      orderId: string,
      change: {
        by: Principal;
        lines?: RequestedLine[] | undefined;
        status?: OrderStatus | undefined;
        payment?: OrderPayment | null | undefined;
      },
      options: CommandOptions,
    ) {
      const price = await priced(change.lines);
      return run(
        orderId,
        (s) => ({ type: 'ChangeOrder', by: change.by, changes: { lines: price(s), status: change.status, payment: change.payment } }),
        options,
      );
    },

    async replace(
      orderId: string,
      order: { by: Principal; userId: string; lines: RequestedLine[]; status: OrderStatus },
      options: CommandOptions,
    ) {
      const price = await priced(order.lines);
      return run(
        orderId,
        (s) => ({ type: 'ReplaceOrder', by: order.by, userId: order.userId, lines: price(s) ?? [], status: order.status }),
        options,
      );
    },

    delete: (orderId: string, by: Principal, options: CommandOptions) => run(orderId, { type: 'DeleteOrder', by }, options),
  };
}

export type OrderCommands = ReturnType<typeof orderCommands>;
