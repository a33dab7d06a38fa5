// The order's life cycle (docs/api.md#order-status):
//
//   draft ──place──▶ placed ──pay──▶ paid ──ship──▶ shipped ──deliver──▶ delivered
//     │                │               │
//     └──cancel──▶ cancelled ◀──cancel─┴───────────────┘ (not once shipped)
//
// Only a draft's lines can change; only a draft or a cancelled order can be deleted.
import type { OrderStatus } from '@eventide/shared/events/catalogue.ts';

export const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  draft: ['placed', 'cancelled'],
  placed: ['paid', 'cancelled'],
  paid: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export const DELETABLE: readonly OrderStatus[] = ['draft', 'cancelled'];

/** Why the order cannot go from `from` to `to`, or undefined when it can. */
export function transitionRefusal(from: OrderStatus, to: OrderStatus, lineCount: number): string | undefined {
  if (from === to) return undefined;
  if (!TRANSITIONS[from].includes(to)) {
    if (TRANSITIONS[from].length === 0) return `the order is ${from}, which is final`;
    if (from === 'shipped' && to === 'cancelled') return 'the order has shipped, so it can no longer be cancelled';
    return `an order cannot go from ${from} to ${to}; from ${from} it can go to ${TRANSITIONS[from].join(' or ')}`;
  }
  if (to === 'placed' && lineCount === 0) return 'an order needs at least one line before it is placed';
  return undefined;
}
