// The entity models by name, each typed with its own state and events: what the projector,
// history, as-of reads and live streams fold with. Indexed by a model name that is a type
// parameter, it gives that model's own types (a mapped type), so no reader erases them.
import type { Model } from '../events/catalogue.ts';
import type { EntityModel } from './model.ts';
import { orderModel, type OrderEvent, type OrderState } from './order/state.ts';
import { productModel, type ProductEvent, type ProductState } from './product/state.ts';
import { userModel, type UserEvent, type UserState } from './user/state.ts';

interface ModelTypes {
  user: { state: UserState; event: UserEvent };
  product: { state: ProductState; event: ProductEvent };
  order: { state: OrderState; event: OrderEvent };
}

export type StateOf<M extends Model> = ModelTypes[M]['state'];
export type EventOf<M extends Model> = ModelTypes[M]['event'];
/** A state of an entity that exists (or existed): what a read model's document holds. */
export type KnownStateOf<M extends Model> = Exclude<StateOf<M>, { status: 'absent' }>;

export type EntityModels = { [M in Model]: EntityModel<StateOf<M>, EventOf<M>> };

export const ENTITY_MODELS: EntityModels = { user: userModel, product: productModel, order: orderModel };
