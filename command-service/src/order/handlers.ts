// The order operations of the command service (createOrder, changeOrder, replaceOrder,
// deleteOrder: api/operations.ts), in every version the table serves them. Who may act on an
// order is its life cycle's rule (shared/src/models/order/life-cycle.ts): the mount applies it
// through orderOwnership before these run, and the decider again on each step.
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Handlers, InputOf, Ownership } from '@eventide/shared/http/mount.ts';
import { owned } from '@eventide/shared/http/mount.ts';
import { maySee } from '@eventide/shared/models/order/life-cycle.ts';
import type { OrderState } from '@eventide/shared/models/order/state.ts';
import { refuse } from '@eventide/shared/models/refusal.ts';
import { handle, load, type CommandOptions } from '../handle.ts';
import { commandOptions, newEntity } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { LoadedState } from '../load.ts';
import { orderAggregate, type OrderCommand } from './decide.ts';
import { currentPrices, priceLines, requireCustomer, type RequestedLine } from './pricing.ts';

type OrderOperations = 'createOrder' | 'changeOrder' | 'replaceOrder' | 'deleteOrder';

/** An order is its customer's and the admins': to anyone else it does not exist, whatever its state. */
export function orderOwnership(store: EventStore): Ownership<LoadedState<OrderState>> {
  return {
    load: ({ id }) => load(store, orderAggregate, id),
    check(who, { state }, { id }) {
      if (state.status === 'absent' || !maySee(state.userId, who)) throw refuse.notFound(`order ${id}`);
    },
  };
}

export function orderHandlers({ store }: { store: EventStore }): Pick<Handlers<'command'>, OrderOperations> {
  const run = (orderId: string, command: OrderCommand | ((s: OrderState) => OrderCommand), options: CommandOptions) =>
    handle(store, orderAggregate, orderId, command, options);

  /** Lines as the decider wants them: priced, with prices kept for products already ordered. */
  async function priced(requested: RequestedLine[] | undefined) {
    const prices = requested ? await currentPrices(store, requested) : undefined;
    return (order: OrderState) => (requested && prices ? priceLines(requested, prices, order) : undefined);
  }

  /** The options of a write to an order the mount has loaded already. */
  const onLoaded = (input: InputOf<'changeOrder' | 'replaceOrder' | 'deleteOrder'>, loaded: LoadedState<OrderState>, body: unknown) => ({
    ...commandOptions(input, body),
    loaded,
  });

  const ownership = orderOwnership(store);
  return {
    async createOrder(input) {
      const { body, principal: by } = input;
      await requireCustomer(store, body.userId, by);
      const price = await priced(body.lines);
      const { id: orderId, options } = newEntity(commandOptions(input, body));
      const result = await run(orderId, (s) => ({ type: 'CreateOrder', by, orderId, userId: body.userId, lines: price(s) ?? [] }), options);
      respondWrite(input.ctx, result, input.represent(result.state), { status: 201, location: `${input.prefix}/orders/${orderId}` });
    },

    changeOrder: owned(ownership, async (input) => {
      const { body, principal: by, owned: order } = input;
      const price = await priced(body.lines);
      const command = (s: OrderState): OrderCommand => ({ type: 'ChangeOrder', by, changes: { lines: price(s), status: body.status } });
      const result = await run(input.params.id, command, onLoaded(input, order, body));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),

    replaceOrder: owned(ownership, async (input) => {
      const { body, principal: by, owned: order } = input;
      const price = await priced(body.lines);
      const command = (s: OrderState): OrderCommand => ({
        type: 'ReplaceOrder',
        by,
        userId: body.userId,
        lines: price(s) ?? [],
        status: body.status,
      });
      const result = await run(input.params.id, command, onLoaded(input, order, body));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),

    deleteOrder: owned(ownership, async (input) => {
      const result = await run(input.params.id, { type: 'DeleteOrder', by: input.principal }, onLoaded(input, input.owned, null));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),
  };
}
