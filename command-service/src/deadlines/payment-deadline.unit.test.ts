// The payment deadline's decisions, given its events, on an order's events and on the time.
import { describe, expect, it } from 'vitest';
import { fold } from '@eventide/kernel/models/model.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import {
  decide,
  evolve,
  initialState,
  reasonFor,
  scheduledOf,
  type PaymentDeadlineEvent,
  type PaymentDeadlineInput,
} from './payment-deadline.ts';

const HOUR = 3_600_000;
const policy = { windowMs: 24 * HOUR, reminderMs: HOUR };
const orderId = 'o0000000-0000-4000-8000-000000000001';
const placedAt = Date.parse('2026-11-29T10:00:00.000Z');

function given(...events: PaymentDeadlineEvent[]) {
  const recorded = events.map((e, revision) => ({ ...e, revision, time: '2026-11-29T10:00:00.000Z' }) as unknown as RecordedEvent);
  const state = fold({ initialState, evolve }, recorded);
  return { when: (input: PaymentDeadlineInput) => ({ state, decision: decide(input, state, policy) }) };
}

const placed = (now = placedAt): Extract<PaymentDeadlineInput, { type: 'order' }> => ({
  type: 'order',
  orderId,
  revision: 1,
  status: 'placed',
  time: new Date(placedAt).toISOString(),
  now,
});
const set: PaymentDeadlineEvent = {
  type: 'payment-deadline:set',
  data: { orderId, placedRevision: 1, deadline: '2026-11-30T10:00:00.000Z', remindAt: '2026-11-30T09:00:00.000Z' },
};
const at = (ms: number): PaymentDeadlineInput => ({ type: 'time', now: ms });

describe('the payment deadline', () => {
  it('is set when the order is placed, the window after, with a reminder before it', () => {
    expect(given().when(placed()).decision).toEqual({ events: [set] });
  });

  it('gives the whole window from when it is set, when it is set late (a backlog, a first run)', () => {
    const late = placedAt + 5 * HOUR;
    const [event] = given().when(placed(late)).decision.events;
    expect(event).toMatchObject({ data: { deadline: new Date(late + 24 * HOUR).toISOString() } });
  });

  it('is set once, however often the placement is seen, even after it was cleared (a follower replaying)', () => {
    expect(given(set).when(placed()).decision).toEqual({ events: [] });
    const cleared: PaymentDeadlineEvent = { type: 'payment-deadline:cleared', data: { orderId, orderRevision: 2, because: 'paid' } };
    expect(given(set, cleared).when(placed()).decision).toEqual({ events: [] });
  });

  it('reminds once, before the deadline', () => {
    expect(given(set).when(at(placedAt + 23 * HOUR - 1)).decision.events).toEqual([]);
    const reminded = given(set).when(at(placedAt + 23 * HOUR)).decision.events;
    expect(reminded).toEqual([{ type: 'payment-deadline:reminded', data: { orderId, deadline: set.data.deadline } }]);
    expect(given(set, reminded[0]!).when(at(placedAt + 23 * HOUR + 1)).decision.events).toEqual([]);
  });

  it('cancels the order when the deadline passes, saying why, even if the reminder was never sent', () => {
    const { decision } = given(set).when(at(placedAt + 24 * HOUR));
    const reason = 'not paid within 24 h of being placed (the payment deadline)';
    expect(decision).toEqual({
      events: [{ type: 'payment-deadline:expired', data: { orderId, deadline: set.data.deadline, reason } }],
      cancel: { orderId, placedRevision: 1, reason },
    });
  });

  it('asks for the cancellation again until the order is seen to leave placed, recording nothing more', () => {
    const expired = given(set).when(at(placedAt + 24 * HOUR)).decision.events[0]!;
    expect(given(set, expired).when(at(placedAt + 25 * HOUR)).decision).toMatchObject({ events: [], cancel: { orderId } });
    const cleared = given(set, expired).when({ ...placed(), revision: 2, status: 'cancelled' }).decision.events;
    expect(cleared).toEqual([{ type: 'payment-deadline:cleared', data: { orderId, orderRevision: 2, because: 'cancelled' } }]);
  });

  it.each(['paid', 'cancelled', 'deleted'] as const)('is cleared when the order is %s first, and then never fires', (status) => {
    const { decision } = given(set).when({ ...placed(), revision: 2, status });
    expect(decision.events).toEqual([{ type: 'payment-deadline:cleared', data: { orderId, orderRevision: 2, because: status } }]);
    const after = given(set, decision.events[0]!).when(at(placedAt + 48 * HOUR));
    expect(after.decision).toEqual({ events: [] });
    expect(scheduledOf('k', after.state, placedAt)).toBeUndefined();
  });

  it('is not set when the window is 0 (no payment deadline)', () => {
    expect(decide(placed(), initialState, { windowMs: 0, reminderMs: 0 })).toEqual({ events: [] });
  });

  it('says its next step to the schedule: the reminder, then the deadline', () => {
    const waiting = given(set).when(at(0)).state;
    expect(scheduledOf('k', waiting, 0)).toMatchObject({ next: 'remind', at: placedAt + 23 * HOUR, deadline: placedAt + 24 * HOUR });
    const reminded = given(set, { type: 'payment-deadline:reminded', data: { orderId, deadline: set.data.deadline } }).when(at(0)).state;
    expect(scheduledOf('k', reminded, 0)).toMatchObject({ next: 'expire', at: placedAt + 24 * HOUR });
  });

  it('says the window in words', () => {
    expect(reasonFor({ windowMs: 90 * 60_000, reminderMs: 0 })).toBe('not paid within 90 min of being placed (the payment deadline)');
    expect(reasonFor({ windowMs: 2 * HOUR, reminderMs: 0 })).toBe('not paid within 2 h of being placed (the payment deadline)');
  });
});
