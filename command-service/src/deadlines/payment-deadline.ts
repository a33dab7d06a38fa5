// An order's payment deadline: a process written like a decider. Its state folds from a stream of
// its own (`payment-deadline-<order id>`), and it decides on the order's events and on the time.
// An order placed is given a deadline (PAYMENT_WINDOW_SECONDS after it was placed, or after the
// deadline was set, whichever is later: an order is never given less than the window from when the
// system knew of it) and a reminder before it; one paid, cancelled or deleted first clears it; one
// still placed when it passes is cancelled by the system, saying why. Its events are private: they
// never leave the write side (docs/deadlines.md).
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import type { Recorded } from '@eventide/kernel/models/model.ts';
import type { ScheduledDeadline } from '@eventide/stores/deadlines/port.ts';

export const PAYMENT_DEADLINE = 'payment-deadline';
/** Who the cancellation says acted: the system, never a person. */
export const PAYMENT_DEADLINE_ACTOR = { type: 'system', name: PAYMENT_DEADLINE } as const;
export const paymentDeadlineStream = (orderId: string) => `${PAYMENT_DEADLINE}-${orderId}`;

export interface PaymentPolicy {
  windowMs: number;
  /** How long before the deadline the reminder is due; 0: none. */
  reminderMs: number;
}

export type PaymentDeadlineEvent =
  | {
      type: 'payment-deadline:set';
      data: { orderId: string; placedRevision: number; deadline: string; remindAt: string | null };
    }
  | { type: 'payment-deadline:reminded'; data: { orderId: string; deadline: string } }
  | { type: 'payment-deadline:expired'; data: { orderId: string; deadline: string; reason: string } }
  | { type: 'payment-deadline:cleared'; data: { orderId: string; orderRevision: number; because: string } };

/**
 * Each state but the first says the last revision of the order it acted on (`seen`): an order
 * event seen again (a follower replaying from an older checkpoint) changes nothing.
 */
export type PaymentDeadlineState =
  | { status: 'none' }
  | { status: 'waiting'; orderId: string; seen: number; placedRevision: number; deadline: number; remindAt?: number; reminded: boolean }
  /** It has passed and the order is being cancelled, until the order is seen to leave `placed`. */
  | { status: 'expired'; orderId: string; seen: number; placedRevision: number; deadline: number; reason: string }
  | { status: 'closed'; orderId: string; seen: number };

export const initialState: PaymentDeadlineState = { status: 'none' };

export function evolve(state: PaymentDeadlineState, event: Recorded<PaymentDeadlineEvent>): PaymentDeadlineState {
  switch (event.type) {
    case 'payment-deadline:set': {
      const { orderId, placedRevision, deadline, remindAt } = event.data;
      return {
        status: 'waiting',
        orderId,
        seen: placedRevision,
        placedRevision,
        deadline: Date.parse(deadline),
        ...(remindAt ? { remindAt: Date.parse(remindAt) } : {}),
        reminded: false,
      };
    }
    case 'payment-deadline:reminded':
      return state.status === 'waiting' ? { ...state, reminded: true } : state;
    case 'payment-deadline:expired':
      return state.status === 'waiting' ? { ...state, status: 'expired', reason: event.data.reason } : state;
    case 'payment-deadline:cleared':
      return { status: 'closed', orderId: event.data.orderId, seen: event.data.orderRevision };
  }
}

/** What the process is told: an event of its order (with the status it moved the order to, if any), or the time. */
export type PaymentDeadlineInput =
  | { type: 'order'; orderId: string; revision: number; status: OrderStatus | 'deleted' | undefined; time: string; now: number }
  | { type: 'time'; now: number };

export interface PaymentDeadlineDecision {
  events: PaymentDeadlineEvent[];
  /** Cancel the order, if it is still placed: what the deadline does when it passes. */
  cancel?: { orderId: string; placedRevision: number; reason: string };
}

/** The reason a cancellation gives, in words: "not paid within 24 h of being placed". */
export function reasonFor(policy: PaymentPolicy): string {
  const seconds = Math.round(policy.windowMs / 1000);
  const span =
    seconds >= 172_800 && seconds % 86_400 === 0
      ? `${seconds / 86_400} d`
      : seconds % 3600 === 0
        ? `${seconds / 3600} h`
        : seconds % 60 === 0
          ? `${seconds / 60} min`
          : `${seconds} s`;
  return `not paid within ${span} of being placed (the payment deadline)`;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function decide(input: PaymentDeadlineInput, state: PaymentDeadlineState, policy: PaymentPolicy): PaymentDeadlineDecision {
  if (input.type === 'order') {
    if (input.status === undefined || (state.status !== 'none' && input.revision <= state.seen)) return { events: [] };
    if (input.status === 'placed') {
      if (state.status === 'waiting' || state.status === 'expired' || policy.windowMs === 0) return { events: [] };
      const deadline = Math.max(Date.parse(input.time), input.now) + policy.windowMs;
      const remindAt = policy.reminderMs > 0 ? deadline - policy.reminderMs : null;
      return {
        events: [
          {
            type: 'payment-deadline:set',
            data: {
              orderId: input.orderId,
              placedRevision: input.revision,
              deadline: iso(deadline),
              remindAt: remindAt === null ? null : iso(remindAt),
            },
          },
        ],
      };
    }
    if (state.status !== 'waiting' && state.status !== 'expired') return { events: [] };
    return {
      events: [
        { type: 'payment-deadline:cleared', data: { orderId: state.orderId, orderRevision: input.revision, because: input.status } },
      ],
    };
  }
  switch (state.status) {
    case 'waiting': {
      const { orderId, placedRevision, deadline } = state;
      if (input.now >= deadline) {
        const reason = reasonFor(policy);
        return {
          events: [{ type: 'payment-deadline:expired', data: { orderId, deadline: iso(deadline), reason } }],
          cancel: { orderId, placedRevision, reason },
        };
      }
      if (state.remindAt !== undefined && !state.reminded && input.now >= state.remindAt) {
        return { events: [{ type: 'payment-deadline:reminded', data: { orderId, deadline: iso(deadline) } }] };
      }
      return { events: [] };
    }
    case 'expired':
      // Recorded, but the order has not been seen to leave `placed`: the cancellation is asked
      // again (it is idempotent), as it may not have been written (a crash between the two on
      // an engine that cannot write both at once).
      return { events: [], cancel: { orderId: state.orderId, placedRevision: state.placedRevision, reason: state.reason } };
    default:
      return { events: [] };
  }
}

/** How long an expired deadline waits before its cancellation is asked again. */
export const CANCEL_AGAIN_MS = 10_000;

/** The schedule's row for this state (undefined: none is needed), at `now`. */
export function scheduledOf(key: string, state: PaymentDeadlineState, now: number): ScheduledDeadline | undefined {
  const row = { key, process: PAYMENT_DEADLINE };
  switch (state.status) {
    case 'waiting': {
      const remind = state.remindAt !== undefined && !state.reminded && state.remindAt < state.deadline;
      return {
        ...row,
        subject: state.orderId,
        next: remind ? 'remind' : 'expire',
        at: remind ? state.remindAt! : state.deadline,
        deadline: state.deadline,
      };
    }
    case 'expired':
      return { ...row, subject: state.orderId, next: 'cancel', at: now + CANCEL_AGAIN_MS, deadline: state.deadline };
    default:
      return undefined;
  }
}
