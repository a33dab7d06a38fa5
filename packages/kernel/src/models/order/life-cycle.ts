// The order's life cycle, and who may take each step: the one statement of it. The decider
// refuses by it, the read side and the web app ask it which steps an actor may take now, and
// docs/api.md#order-status describes it.
//
//   draft ──place──▶ placed ──pay──▶ paid ──ship──▶ shipped ──deliver──▶ delivered
//     │                │               │
//     └──cancel──▶ cancelled ◀──cancel─┘         (not once shipped)
//
// As a shop runs it: the customer places and cancels their own order; a payment, a shipment and
// a delivery are recorded by an admin, who may also take the customer's steps for them. Only a
// draft's lines change; only a draft or a cancelled order is deleted. Someone who is neither the
// order's customer nor an admin cannot tell that the order exists.
import type { OrderStatus } from '../../entities/order.ts';
import { refuse } from '../refusal.ts';
import { actsAsAdmin, type Principal } from '../principal.ts';

/** How the one acting stands to an order. */
export type OrderRole = 'customer' | 'admin';

export interface OrderStep {
  name: 'place' | 'pay' | 'ship' | 'deliver' | 'cancel';
  from: readonly OrderStatus[];
  to: OrderStatus;
  by: readonly OrderRole[];
}

export type OrderStepName = OrderStep['name'];

export const ORDER_STEPS: readonly OrderStep[] = [
  { name: 'place', from: ['draft'], to: 'placed', by: ['customer', 'admin'] },
  { name: 'pay', from: ['placed'], to: 'paid', by: ['admin'] },
  { name: 'ship', from: ['paid'], to: 'shipped', by: ['admin'] },
  { name: 'deliver', from: ['shipped'], to: 'delivered', by: ['admin'] },
  { name: 'cancel', from: ['draft', 'placed', 'paid'], to: 'cancelled', by: ['customer', 'admin'] },
];

/** The way an order goes when nothing goes wrong, draft to delivered: from each status, its first step (a page draws it). */
export const ORDER_PATH: readonly OrderStatus[] = (() => {
  const path: OrderStatus[] = ['draft'];
  for (;;) {
    const next = ORDER_STEPS.find((step) => step.from.includes(path[path.length - 1]!));
    if (!next || path.includes(next.to)) return path;
    path.push(next.to);
  }
})();

/** Statuses in which the lines may change, and in which the order may be deleted (by its customer or an admin). */
export const LINES_CHANGE_IN: readonly OrderStatus[] = ['draft'];
export const DELETABLE_IN: readonly OrderStatus[] = ['draft', 'cancelled'];

/** The part of an order the rules read. */
export interface OrderFacts {
  userId: string;
  status: OrderStatus;
  lineCount: number;
}

/** How `who` stands to an order of `customerId`: undefined for a stranger, to whom it does not exist. */
export function roleIn(customerId: string, who: Principal): OrderRole | undefined {
  if (actsAsAdmin(who)) return 'admin';
  return who.type === 'user' && who.userId === customerId ? 'customer' : undefined;
}

/** Whether `who` may see (and so act on) an order of `customerId`. */
export const maySee = (customerId: string, who: Principal): boolean => roleIn(customerId, who) !== undefined;

/**
 * Whose orders a list `who` asks for holds, the customer `asked` for or anyone's: an admin's, what
 * was asked (undefined: everyone's); a user's, their own, and none (null) when they ask for
 * someone else's, whose list is as empty as a stranger's.
 */
export function listedCustomer(who: Principal, asked: string | undefined): string | undefined | null {
  if (actsAsAdmin(who)) return asked;
  if (who.type !== 'user' || (asked !== undefined && asked !== who.userId)) return null;
  return who.userId;
}

/** Orders are made for oneself; an admin makes them for anyone. Another user, to anyone else, does not exist. */
export function requireMayOrderFor(userId: string, who: Principal): void {
  if (roleIn(userId, who) === undefined) throw refuse.unprocessable('userId', 'no user has this id');
}

/** The step that brings an order to `to`: one step leads to each status but draft. */
const stepTo = (to: OrderStatus) => ORDER_STEPS.find((step) => step.to === to);
const stepsFrom = (from: OrderStatus) => ORDER_STEPS.filter((step) => step.from.includes(from));

/** What keeps a step from being taken by anyone now, or undefined. */
function blocked(step: OrderStep, order: OrderFacts): string | undefined {
  if (step.name === 'place' && order.lineCount === 0) return 'an order needs at least one line before it is placed';
  return undefined;
}

/** The steps `who` may take on the order now, in the life cycle's order: what a page offers. */
export function stepsFor(order: OrderFacts, who: Principal): OrderStep[] {
  const role = roleIn(order.userId, who);
  if (!role) return [];
  return stepsFrom(order.status).filter((step) => step.by.includes(role) && !blocked(step, order));
}

const roleWords: Record<OrderRole, string> = { customer: "the order's customer", admin: 'an admin' };

/** Refuses unless `who` may move the order from its status to `to` (a status it has already is no step). */
export function requireStep(order: OrderFacts, to: OrderStatus, who: Principal): void {
  if (order.status === to) return;
  const role = roleIn(order.userId, who);
  if (!role) throw refuse.notFound('this order');
  const step = stepTo(to);
  const next = stepsFrom(order.status);
  if (!step?.from.includes(order.status)) {
    if (next.length === 0) throw refuse.invalidTransition(`the order is ${order.status}, which is final`, 'status');
    if (to === 'cancelled') throw refuse.invalidTransition(`the order is ${order.status}, so it can no longer be cancelled`, 'status');
    // Each step it can take, and whose it is when it is not the caller's: what to do instead.
    const targets = next
      .map((s) => (s.by.includes(role) ? s.to : `${s.to} (set by ${s.by.map((r) => roleWords[r]).join(' or ')})`))
      .join(' or ');
    throw refuse.invalidTransition(
      `an order cannot go from ${order.status} to ${to}; from ${order.status} it can go to ${targets}`,
      'status',
    );
  }
  if (!step.by.includes(role)) {
    const allowed = step.by.map((r) => roleWords[r]).join(' or ');
    throw refuse.forbidden(`an order is marked ${to} by ${allowed} only`, {
      fields: [{ field: 'status', message: `is set to ${to} by ${allowed} only` }],
    });
  }
  const reason = blocked(step, order);
  if (reason) throw refuse.invalidTransition(reason, 'status');
}

/** Refuses unless the order's lines may change in its status. */
export function requireLinesMayChange(order: OrderFacts): void {
  if (!LINES_CHANGE_IN.includes(order.status)) {
    throw refuse.conflict(`the order is ${order.status}: only a draft order's lines can change`, {
      fields: [{ field: 'lines', message: `cannot change once the order is ${order.status}` }],
    });
  }
}

export const mayDelete = (order: Pick<OrderFacts, 'status'>): boolean => DELETABLE_IN.includes(order.status);

/** Refuses unless the order may be deleted in its status. */
export function requireDeletable(order: Pick<OrderFacts, 'status'>): void {
  if (!mayDelete(order)) {
    throw refuse.invalidTransition(
      `the order is ${order.status}: cancel it before deleting it (only draft or cancelled orders can be deleted)`,
      'status',
    );
  }
}
