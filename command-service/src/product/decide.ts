// Product commands and the pure decisions on them.
import { refuse, requireLive } from '@eventide/kernel/models/refusal.ts';
import { productModel, type ProductDetails, type ProductEvent, type ProductState } from '@eventide/kernel/models/product/state.ts';
import type { Aggregate } from '../aggregate.ts';

export type ProductCommand =
  | { type: 'CreateProduct'; productId: string; details: ProductDetails }
  | { type: 'ChangeProduct'; changes: Partial<ProductDetails> }
  | { type: 'DeleteProduct' };

type Existing = Extract<ProductState, { status: 'active' }>;

const requireActive = (state: ProductState): Existing => requireLive(state, 'this product');

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function decide(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct':
      if (state.status !== 'absent') throw refuse.conflict(`product ${command.productId} already exists`);
      return [{ type: 'product:created', data: { productId: command.productId, ...command.details } }];
    case 'ChangeProduct': {
      const current = requireActive(state);
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([key, value]) => !same(value, current[key as keyof ProductDetails])),
      ) as Partial<ProductDetails>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'product:updated', data: { productId: current.productId, changes } }];
    }
    case 'DeleteProduct':
      return [{ type: 'product:deleted', data: { productId: requireActive(state).productId } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const productAggregate: Aggregate<ProductState, ProductCommand, ProductEvent> = { ...productModel, decide };
