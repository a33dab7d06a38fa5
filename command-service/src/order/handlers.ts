// The order operations of the command service (createOrder, changeOrder, replaceOrder,
// deleteOrder: api/operations.ts), in every version the table serves them. Who may act on an
// order is its life cycle's rule (packages/kernel/src/models/order/life-cycle.ts): the mount applies it
// through orderOwnership before these run, and the decider again on each step.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { owned, type Handlers, type InputOf, type Ownership } from '@eventide/platform/http/mount.ts';
import { maySee } from '@eventide/kernel/models/order/life-cycle.ts';
import type { OrderState } from '@eventide/kernel/models/order/state.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { load } from '../handle.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { LoadedState } from '@eventide/stores/event-store/load-state.ts';
import { orderAggregate } from './decide.ts';
import type { OrderCommands } from './orders.ts';

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

export function orderHandlers(store: EventStore, orders: OrderCommands): Pick<Handlers<'command'>, OrderOperations> {
  /** A write's options, on the order the mount loaded already: it is not read twice. */
  const onLoaded = (input: InputOf<'changeOrder' | 'replaceOrder' | 'deleteOrder'>, loaded: LoadedState<OrderState>, body: unknown) => ({
    ...commandOptions(input, body),
    loaded,
  });
  const ownership = orderOwnership(store);
  return {
    async createOrder(input) {
      const { body, principal: by } = input;
      const { id, result } = await orders.create({ by, userId: body.userId, lines: body.lines }, commandOptions(input, body));
      respondWrite(input.ctx, result, input.represent(result.state), { status: 201, location: `${input.prefix}/orders/${id}` });
    },

    changeOrder: owned(ownership, async (input) => {
      const { body, principal: by } = input;
      const result = await orders.change(input.params.id, { by, ...body }, onLoaded(input, input.owned, body));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),

    replaceOrder: owned(ownership, async (input) => {
      const { body, principal: by } = input;
      const result = await orders.replace(input.params.id, { by, ...body }, onLoaded(input, input.owned, body));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),

    deleteOrder: owned(ownership, async (input) => {
      const result = await orders.delete(input.params.id, input.principal, onLoaded(input, input.owned, null));
      respondWrite(input.ctx, result, input.represent(result.state));
    }),
  };
}
