// Runs the payment deadlines (payment-deadline.ts) in this process: a follower of the log hands
// each order's events to its process, and a timer hands it the time when its next step is due, as
// the schedule says. Every process that runs the command service runs both; they agree through the
// log: a process's stream is appended at the revision it was read at, and the cancellation is a
// command with an id of its own, so a second process, or a restart after SIGKILL, finds it done
// rather than doing it again (docs/deadlines.md).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fold } from '@eventide/kernel/models/model.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/names.ts';
import type { Clock } from '@eventide/kernel/clock.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import { derivedId } from '@eventide/kernel/ids.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import { wakeableSleep } from '@eventide/kernel/wakeable-sleep.ts';
import type { DeadlineSchedule } from '@eventide/stores/deadlines/port.ts';
import { WrongExpectedRevisionError, type EventStore, type StreamAppend } from '@eventide/stores/event-store/port.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import { DEADLINES_CHECKPOINT } from '@eventide/stores/read-store/follower-checkpoints.ts';
import { startFollower, type Checkpoints, type Follower } from '@eventide/runtime/followers/follower.ts';
import { isRefusal } from '@eventide/kernel/models/refusal.ts';
import { handle } from '../handle.ts';
import { orderAggregate, type OrderCommand } from '../order/decide.ts';
import {
  PAYMENT_DEADLINE,
  PAYMENT_DEADLINE_ACTOR,
  decide,
  evolve,
  initialState,
  paymentDeadlineStream,
  scheduledOf,
  type PaymentDeadlineInput,
  type PaymentPolicy,
} from './payment-deadline.ts';

/** What moves an order's process (statusAfter): the order's own events, all that its follower reads. */
const ORDER_EVENTS = EVENT_NAMES.filter((name) => name.startsWith('order:'));

/**
 * The longest the follower acts on orders before the requests that share its thread (the writing
 * one) get a turn. Catching up, a batch holds hundreds of orders (80,000 in the seeded store of
 * 1,000,000 events): acted on in one go, the requests waited for all of them.
 */
const ACT_FOR_AT_MOST_MS = 2;

/** Rows acted on per look at the schedule. */
const DUE_AT_ONCE = 100;
/** The longest a timer sleeps without looking at the schedule (another process may have written it). */
const LOOK_AT_LEAST_EVERY_MS = 60_000;
/** Attempts at one step when another process moved the same stream meanwhile. */
const ATTEMPTS = 5;

export interface Deadlines {
  follower: Follower;
  stop(): Promise<void>;
}

const model = { initialState, evolve };

/** The status an order event moves its order to; undefined when it does not move it. */
function statusAfter(event: RecordedEvent): OrderStatus | 'deleted' | undefined {
  const data = event.data as { status?: OrderStatus; changes?: { status?: OrderStatus } };
  if (event.type === 'order:created') return data.status;
  if (event.type === 'order:updated') return data.changes?.status;
  if (event.type === 'order:deleted') return 'deleted';
  return undefined;
}

export function startDeadlines(options: {
  eventStore: EventStore;
  schedule: DeadlineSchedule;
  checkpoints: Checkpoints;
  parked: ParkedEvents;
  clock: Clock;
  policy: PaymentPolicy;
  log: Logger;
}): Deadlines {
  const { eventStore: store, schedule, clock, policy } = options;
  const log = options.log.child({ component: 'deadlines' });

  /** Hands `input` to the order's process: decides, records, acts, and writes its schedule row. */
  async function act(orderId: string, input: PaymentDeadlineInput, cause: string): Promise<void> {
    const key = paymentDeadlineStream(orderId);
    for (let attempt = 1; ; attempt++) {
      const events = await store.readStream(key);
      const revision = events.at(-1)?.revision ?? -1;
      const state = fold(model, events);
      const decision = decide(input, state, policy);
      const correlationId = derivedId(PAYMENT_DEADLINE, orderId, 'correlation');
      const recorded: StreamAppend | undefined =
        decision.events.length === 0
          ? undefined
          : {
              streamId: key,
              expectedRevision: revision < 0 ? 'no_stream' : revision,
              // Ids from what caused them: the same decision made again (a restart, another process) is the same event.
              events: decision.events.map((event, i) => ({
                id: derivedId(PAYMENT_DEADLINE, key, cause, String(revision), String(i)),
                type: event.type,
                data: event.data,
                metadata: { correlationId, causationId: cause, actor: PAYMENT_DEADLINE_ACTOR },
              })),
            };
      try {
        if (decision.cancel) await cancel(decision.cancel, recorded, correlationId);
        else if (recorded) await store.append(key, recorded.events, { expectedRevision: recorded.expectedRevision });
      } catch (error) {
        const raced = error instanceof WrongExpectedRevisionError || (isRefusal(error) && error.kind === 'conflict');
        if (raced && attempt < ATTEMPTS) continue;
        throw error;
      }
      const after = fold(model, await store.readStream(key, { fromRevision: revision + 1 }), state);
      await writeRow(key, after);
      return;
    }
  }

  /** The schedule's row for the process's state; one still due is looked at again later, not at once. */
  async function writeRow(key: string, state: Parameters<typeof scheduledOf>[1]): Promise<void> {
    const now = clock.now();
    const row = scheduledOf(key, state, now);
    if (!row) return schedule.put([], [key]);
    await schedule.put([row.at <= now ? { ...row, at: now + backoffDelay(3) } : row], []);
  }

  /**
   * Cancels the order if it is still placed, with the deadline's record in the same commit where
   * the store allows it. The command's id is the deadline's, so that whoever runs it again finds it done.
   */
  async function cancel(
    what: { orderId: string; placedRevision: number; reason: string },
    recorded: StreamAppend | undefined,
    correlationId: string,
  ): Promise<void> {
    const by = PAYMENT_DEADLINE_ACTOR;
    await handle(
      store,
      orderAggregate,
      what.orderId,
      (order): OrderCommand => ({ type: 'ChangeOrder', by, changes: order.status === 'placed' ? { status: 'cancelled' } : {} }),
      {
        metadata: { correlationId, actor: by, reason: what.reason },
        idempotency: { scopedKey: `${PAYMENT_DEADLINE}:${what.orderId}:${what.placedRevision}`, fingerprint: 'cancel' },
      },
      { appendFirst: async () => (recorded ? [recorded] : []) },
    );
  }

  // The timer: acts on what is due, then sleeps until the next is, or until woken.
  const controller = new AbortController();
  const timer = wakeableSleep(controller.signal);
  const rouse = timer.wake;
  const stopJumps = clock.onJump(rouse);

  async function runTimer(): Promise<void> {
    let failures = 0;
    while (!controller.signal.aborted) {
      try {
        const now = clock.now();
        const due = await schedule.due(now, DUE_AT_ONCE);
        for (const row of due) {
          if (controller.signal.aborted) return;
          try {
            await act(row.subject, { type: 'time', now }, derivedId(PAYMENT_DEADLINE, row.key, row.next, String(row.at)));
          } catch (error) {
            // One process that keeps failing must not hold up the others, nor be tried in a loop.
            log.error({ err: error, process: row.key, next: row.next }, 'a deadline could not be acted on; it is tried again later');
            await schedule.put([{ ...row, at: now + LOOK_AT_LEAST_EVERY_MS }], []);
          }
        }
        failures = 0;
        if (due.length === DUE_AT_ONCE) continue;
        const earliest = await schedule.earliest();
        const until = earliest === undefined ? LOOK_AT_LEAST_EVERY_MS : Math.min(LOOK_AT_LEAST_EVERY_MS, earliest - clock.now());
        if (until > 0) await timer.sleep(until);
      } catch (error) {
        failures++;
        const delay = backoffDelay(failures);
        log.error({ err: error, retryInMs: Math.round(delay) }, 'the deadline schedule could not be read; trying again');
        await timer.sleep(delay);
      }
    }
  }

  const follower = startFollower({
    name: 'deadlines',
    checkpoint: DEADLINES_CHECKPOINT,
    eventStore: store,
    // Orders hold nothing personal, and the process needs nothing personal.
    keepSealed: true,
    checkpoints: options.checkpoints,
    parked: options.parked,
    log,
    probe: () => schedule.earliest(),
    types: ORDER_EVENTS,
    async handle(batch) {
      let since = performance.now();
      for (const event of batch) {
        const status = statusAfter(event);
        if (status === undefined) continue;
        const orderId = event.streamId.slice('order-'.length);
        await act(orderId, { type: 'order', orderId, revision: event.revision, status, time: event.time, now: clock.now() }, event.id);
        if (performance.now() - since > ACT_FOR_AT_MOST_MS) {
          await nextTurn();
          since = performance.now();
        }
      }
      rouse();
    },
  });
  const running = runTimer();

  return {
    follower,
    async stop() {
      controller.abort();
      stopJumps();
      await Promise.all([follower.stop(), running]);
    },
  };
}
