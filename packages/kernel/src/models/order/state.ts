// The order model, for both sides: a user's order of product lines, priced when the lines were
// set, and its status (which steps it may take, and who takes them, is its life cycle: life-cycle.ts).
import type { DetailsOf } from '../../entities/entity.ts';
import type { ORDER, OrderStatus } from '../../entities/order.ts';
import type { DomainEvent, EntityModel, Recorded } from '../model.ts';

export type OrderEvent = DomainEvent<'order:created' | 'order:updated' | 'order:deleted'>;

/** Its declaration's details (entities/order.ts) but the status, which the union below says. */
type OrderFields = Omit<DetailsOf<typeof ORDER>, 'status'> & {
  orderId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type OrderState =
  | { status: 'absent' }
  | ({ status: OrderStatus } & OrderFields)
  | ({ status: 'deleted'; deletedAt: string; lastStatus: OrderStatus } & OrderFields);

export type ExistingOrder = Extract<OrderState, { status: OrderStatus }>;

export const initialState: OrderState = { status: 'absent' };

export function isExisting(state: OrderState): state is ExistingOrder {
  return state.status !== 'absent' && state.status !== 'deleted';
}

export function evolve(state: OrderState, event: Recorded<OrderEvent>): OrderState {
  switch (event.type) {
    case 'order:created':
      return { ...event.data, createdAt: event.time, updatedAt: event.time, version: event.revision };
    case 'order:updated':
      if (!isExisting(state)) return state;
      return { ...state, ...event.data.changes, updatedAt: event.time, version: event.revision };
    case 'order:deleted':
      if (!isExisting(state)) return state;
      return {
        ...state,
        status: 'deleted',
        lastStatus: state.status,
        deletedAt: event.time,
        updatedAt: event.time,
        version: event.revision,
      };
  }
}

export const orderModel: EntityModel<OrderState, OrderEvent> = { model: 'order', initialState, evolve };
