// The product model, for both sides: what a catalogue entry holds and how its events evolve it.
import type { DetailsOf } from '../../entities/entity.ts';
import type { DomainEvent, EntityModel, Recorded } from '../model.ts';
import type { PRODUCT } from '../../entities/product.ts';

export type ProductEvent = DomainEvent<'product:created' | 'product:updated' | 'product:deleted'>;

/** What a product says of itself: its declaration's details (entity.ts). */
export type ProductDetails = DetailsOf<typeof PRODUCT>;

type ProductFields = ProductDetails & { productId: string; createdAt: string; updatedAt: string; version: number };

export type ProductState =
  | { status: 'absent' }
  | ({ status: 'active' } & ProductFields)
  | ({ status: 'deleted'; deletedAt: string } & ProductFields);

export const initialState: ProductState = { status: 'absent' };

export function evolve(state: ProductState, event: Recorded<ProductEvent>): ProductState {
  switch (event.type) {
    case 'product:created':
      return { status: 'active', ...event.data, createdAt: event.time, updatedAt: event.time, version: event.revision };
    case 'product:updated':
      if (state.status !== 'active') return state;
      return { ...state, ...event.data.changes, updatedAt: event.time, version: event.revision };
    case 'product:deleted':
      if (state.status !== 'active') return state;
      return { ...state, status: 'deleted', deletedAt: event.time, updatedAt: event.time, version: event.revision };
  }
}

export const productModel: EntityModel<ProductState, ProductEvent> = { model: 'product', initialState, evolve };
