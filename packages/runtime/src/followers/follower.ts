// A follower of the log with a checkpoint of its own (the publisher, the forgetter): it reads what
// came after its checkpoint in batches, hands each batch on, and only then moves the checkpoint, so
// one stopped anywhere handles at most the batch it was in again. A follower of some types only
// (the deadlines, the forgetter) is handed just those, and moves past the rest unread. An event it
// cannot handle is parked and its stream's later events held behind it (parking.ts); what
// operators ask of them is done between batches, and at start every parked event is tried again.
// After a failure of its store it starts again from the checkpoint (resilient.ts).
import { Mutex } from 'async-mutex';
import { isReached, type EventStore, type OfTypes } from '@eventide/stores/event-store/port.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { batches } from '@eventide/stores/event-store/batches.ts';
import { eventAt } from '@eventide/stores/event-store/event-at.ts';
import { lotOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { FollowerName } from '@eventide/kernel/events/followers.ts';
import { progressSignal } from '../compose.ts';
import { runResilient } from './resilient.ts';
import { ParkingLot, type Handling } from './parking.ts';

const BATCH = 500;
/** How often the checkpoint of a follower of some types moves past events it was not handed (follow). */
const SAVE_PASSED_OVER_EVERY_MS = 1_000;
/** How often a follower with nothing to do looks for what operators asked of its parked events. */
export const REQUESTS_EVERY_MS = 1_000;

export interface Checkpoints {
  loadCheckpoint(name: string): Promise<number>;
  saveCheckpoint(name: string, position: number): Promise<void>;
}

export interface Follower {
  /** The position of the last event handled. */
  position(): number;
  /** Calls `listener` each time the checkpoint has moved; returns what stops it. */
  onProgress(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** What a follower is following now: its lot and how it handles events. */
export interface Following {
  lot: ParkingLot;
  handling: Handling;
}

/**
 * Serves operators' requests on a timer while the follower waits for events, one turn at a time
 * with its batches (the mutex), so that nothing else moves the lot meanwhile. Returns what stops it.
 */
export function servingRequests(mutex: Mutex, following: () => Following | undefined, log: Logger): () => void {
  const timer = setInterval(() => {
    const current = following();
    if (!current || mutex.isLocked()) return;
    void mutex
      .runExclusive(() => current.lot.serveRequests(current.handling))
      .catch((error: unknown) => log.error({ err: error, lot: current.lot.lot }, 'serving requests on parked events failed; trying again'));
  }, REQUESTS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export function startFollower(options: {
  /** For the logs, the console and its parked events' lot. */
  name: FollowerName;
  checkpoint: string;
  eventStore: EventStore;
  /** Hand on personal fields sealed, as they are at rest (the publisher, the forgetter), not opened. */
  keepSealed?: boolean;
  checkpoints: Checkpoints;
  parked: ParkedEvents;
  log: Logger;
  handle(batch: RecordedEvent[]): Promise<void>;
  /** Asks the store it writes to something simple: rejects when that store is failing (parking.ts). */
  probe(): Promise<unknown>;
  /**
   * The types of event it acts on, when not all: the store passes over the others as it reads
   * (EventStore.subscribeToTypes), and the checkpoint moves past them; they are neither handled
   * nor parked. The deadlines act on orders, 8% of the seeded store of 1,000,000 events: reading
   * and parsing every event there, on the writing thread, they caught up in 11-13 s, now in 6.3-6.7.
   */
  types?: readonly string[];
}): Follower {
  const { name, checkpoint, eventStore, checkpoints, log, keepSealed = false } = options;
  const controller = new AbortController();
  const progress = progressSignal();
  const mutex = new Mutex();
  const handling: Handling = {
    handle: options.handle,
    probe: options.probe,
    read: (position) => eventAt(eventStore, position, { keepSealed }),
    ...(options.types ? { wants: (event: RecordedEvent) => options.types!.includes(event.type) } : {}),
  };
  let position = 0;
  let following: Following | undefined;

  async function follow(): Promise<void> {
    position = await checkpoints.loadCheckpoint(checkpoint);
    const opened = await ParkingLot.open(lotOf(name), options.parked, log);
    // What a newer release wrote, or a handler failed on, may be handled now.
    await mutex.runExclusive(() => opened.serveRequests(handling, { everything: true }));
    following = { lot: opened, handling };
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    const subscription: AsyncIterable<OfTypes> = options.types
      ? eventStore.subscribeToTypes(options.types, { after: position, signal, keepSealed })
      : eventStore.subscribeToAll({ after: position, signal, keepSealed });
    let savedAt = 0;
    for await (const batch of batches(subscription, BATCH, () => session.abort())) {
      const events = batch.filter((item): item is RecordedEvent => !isReached(item));
      if (events.length > 0) await mutex.runExclusive(() => opened.handleBatch(events, handling, signal));
      // Everything up to the batch's last item is handled or passed over: events and positions reached come in order.
      const last = batch[batch.length - 1]!;
      const reached = isReached(last) ? last.reached : last.position;
      // What was handled is saved at once; a stretch only passed over, at most once a second: one
      // lost to a stop is only read past again, and a follower of few types on the writing thread
      // (the deadlines) saved after every group commit of sign-ups, 8-10 µs of each.
      if (events.length > 0 || performance.now() - savedAt >= SAVE_PASSED_OVER_EVERY_MS) {
        await checkpoints.saveCheckpoint(checkpoint, reached);
        savedAt = performance.now();
      }
      position = reached;
      progress.notify();
    }
  }

  const stopServing = servingRequests(mutex, () => following, log);
  const running = runResilient(name, controller.signal, log, follow);
  return {
    position: () => position,
    onProgress: progress.subscribe,
    async stop() {
      stopServing();
      controller.abort();
      await running;
    },
  };
}
