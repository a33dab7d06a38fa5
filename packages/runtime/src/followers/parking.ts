// How a follower of the log goes on past an event it cannot handle: the event is parked with the
// reason (stores/parked), and the later events of its stream are held behind it, so that each
// entity keeps its order while every other entity moves on (a sequenced dead-letter queue).
//
// Before a batch is handed on, the events this release cannot read (`unreadable`) and those of a
// stream already blocked are parked. When handling the rest fails, it is tried again a few times
// (a store that hiccuped), then one event at a time, to find the event that fails. Before such an
// event is parked, `probe` asks the follower's store something simple: if that fails too, the
// trouble is the store, not the event, and the batch fails as a whole (the follower backs off and
// resumes from its checkpoint) rather than parking every event while the store is away.
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { backoffDelay, sleep } from '@eventide/kernel/backoff.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { ParkedEvent, ParkedEvents } from '@eventide/stores/parked/port.ts';

/** Tries of one handling before it counts as failing: the first and two more, 50-400 ms apart. */
const TRIES = 3;
const RETRY = { firstMs: 50, maxMs: 400 };

export interface Handling {
  /** Handles events in order (the projector: applies them to the read models). */
  handle(events: RecordedEvent[]): Promise<void>;
  /** Asks the follower's store something simple; rejects when the store itself is failing. */
  probe(): Promise<unknown>;
  /** Reads the event at a position of the log, as this follower reads the log (sealed or not). */
  read(position: number): Promise<RecordedEvent | undefined>;
  /** What skipping an event means to this follower, beyond not handling it (the projector's: its version passes). */
  skip?(event: RecordedEvent): Promise<void>;
  /** The events this follower acts on (all when absent): the others are neither handled nor parked. */
  wants?(event: RecordedEvent): boolean;
}

/** Requests served between two batches: the rest wait for the next turn. */
const REQUESTS_AT_ONCE = 100;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `work`, trying again after a failure, up to TRIES in all; rejects with the last error and how often it was tried. */
export async function tried(work: () => Promise<void>, signal?: AbortSignal): Promise<{ error: unknown; attempts: number } | undefined> {
  let error: unknown;
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      await work();
      return undefined;
    } catch (failed) {
      error = failed;
      if (signal?.aborted) throw failed;
      if (attempt < TRIES) await sleep(backoffDelay(attempt, RETRY));
    }
  }
  return { error, attempts: TRIES };
}

export class ParkingLot {
  readonly lot: string;
  private readonly parked: ParkedEvents;
  private readonly log: Logger;
  private readonly clock: () => Date;
  /** Each stream with a parked event, and the position of its first: later ones wait behind it. */
  private readonly blocked: Map<string, number>;

  private constructor(lot: string, parked: ParkedEvents, log: Logger, clock: () => Date, blocked: Map<string, number>) {
    this.lot = lot;
    this.parked = parked;
    this.log = log;
    this.clock = clock;
    this.blocked = blocked;
  }

  /** The lot as the store holds it: which streams are blocked. */
  static async open(lot: string, parked: ParkedEvents, log: Logger, clock: () => Date = () => new Date()): Promise<ParkingLot> {
    return new ParkingLot(lot, parked, log, clock, await parked.blockedStreams(lot));
  }

  get store(): ParkedEvents {
    return this.parked;
  }

  /** The first parked event of a stream, while it is blocked. */
  blockerOf(streamId: string): number | undefined {
    return this.blocked.get(streamId);
  }

  /** Marks the stream free again: its parked events were all handled or skipped. */
  unblock(streamId: string): void {
    this.blocked.delete(streamId);
  }

  /** A record of the event, parked for `reason` (the first of its stream) or held behind its stream's first. */
  recordOf(event: RecordedEvent, reason: string, attempts: number): ParkedEvent {
    const now = this.clock().toISOString();
    const behind = this.blocked.get(event.streamId);
    return {
      lot: this.lot,
      position: event.position,
      eventId: event.id,
      streamId: event.streamId,
      revision: event.revision,
      type: event.type,
      time: event.time,
      reason: behind === undefined ? reason : `waits behind the parked event at position ${behind} of ${event.streamId}`,
      ...(behind === undefined ? {} : { behind }),
      attempts: behind === undefined ? attempts : 0,
      parkedAt: now,
      lastAttemptAt: now,
    };
  }

  /** Parks the event (or holds it behind its stream's first), blocking its stream. */
  hold(event: RecordedEvent, reason: string, attempts: number): ParkedEvent {
    const record = this.recordOf(event, reason, attempts);
    if (record.behind === undefined) {
      this.blocked.set(event.streamId, event.position);
      this.log.error(
        { lot: this.lot, position: event.position, streamId: event.streamId, type: event.type, reason },
        'a follower parked an event it cannot handle; the stream waits behind it (docs/operations.md#faults)',
      );
    }
    return record;
  }

  /**
   * Hands on what can be handled now and parks the rest (see the top of this file). Returns once
   * every event of the batch is handled or parked; rejects, parking nothing more, when the store
   * itself fails.
   */
  async handleBatch(batch: RecordedEvent[], handling: Handling, signal?: AbortSignal): Promise<void> {
    const parking: ParkedEvent[] = [];
    const ready: RecordedEvent[] = [];
    for (const event of handling.wants ? batch.filter(handling.wants) : batch) {
      if (event.unreadable !== undefined) parking.push(this.hold(event, event.unreadable, 1));
      else if (this.blocked.has(event.streamId)) parking.push(this.hold(event, '', 0));
      else ready.push(event);
    }
    // Parked before anything after them is acknowledged: a follower stopped in between parks them again.
    await this.parked.park(parking);
    if (ready.length === 0) return;
    const failed = await tried(() => handling.handle(ready), signal);
    if (!failed) return;
    this.log.warn({ lot: this.lot, err: failed.error }, 'a follower failed on a batch; handling it one event at a time');
    for (const event of ready) {
      if (this.blocked.has(event.streamId)) {
        await this.parked.park([this.hold(event, '', 0)]);
        continue;
      }
      const failure = await tried(() => handling.handle([event]), signal);
      if (!failure) continue;
      // The store, not the event, when it fails a simple question too: the batch fails whole.
      await handling.probe();
      await this.parked.park([this.hold(event, reasonOf(failure.error), failure.attempts)]);
    }
  }

  /**
   * Does what operators asked of the lot (retry, skip: stores/parked), and with `everything` tries
   * every blocked stream again (a follower starting: the release may now know what it parked).
   * Called between batches, so nothing else moves the lot meanwhile.
   */
  async serveRequests(handling: Handling, { everything = false } = {}): Promise<void> {
    const heads = everything
      ? await Promise.all([...this.blocked.values()].map((position) => this.parked.get(this.lot, position)))
      : await this.parked.requested(this.lot, REQUESTS_AT_ONCE);
    for (const head of heads) if (head) await this.retryStream(head, handling);
  }

  /**
   * Handles a blocked stream's parked events in order from its first (which is skipped if that was
   * asked), releasing each one handled; stops at the first that fails again, which the rest then
   * wait behind.
   */
  private async retryStream(head: ParkedEvent, handling: Handling): Promise<void> {
    const sequence = await this.parked.ofStream(this.lot, head.streamId);
    for (const [i, parked] of sequence.entries()) {
      const event = await handling.read(parked.position);
      if (event && i === 0 && head.request?.action === 'skip') {
        await handling.skip?.(event);
        this.log.warn(
          { lot: this.lot, position: parked.position, request: head.request },
          'a parked event was skipped, as an operator asked',
        );
      } else if (event) {
        const failure =
          event.unreadable !== undefined
            ? { error: new Error(event.unreadable), attempts: 1 }
            : await tried(() => handling.handle([event]));
        if (failure) {
          if (event.unreadable === undefined) await handling.probe();
          await this.stillParked(sequence.slice(i), reasonOf(failure.error), failure.attempts);
          return;
        }
      } else {
        // Not in the log any more (a store restored from an older backup): nothing to handle.
        this.log.error({ lot: this.lot, position: parked.position }, 'a parked event is no longer in the log; it is let go');
      }
      await this.parked.release(this.lot, [parked.position]);
    }
    this.blocked.delete(head.streamId);
  }

  /** The stream's events from one that failed again: it is now the first, the others wait behind it. */
  private async stillParked(rest: ParkedEvent[], reason: string, attempts: number): Promise<void> {
    const [first, ...held] = rest as [ParkedEvent, ...ParkedEvent[]];
    const now = this.clock().toISOString();
    this.blocked.set(first.streamId, first.position);
    const { behind: _, request: __, ...head } = first;
    await this.parked.park([
      { ...head, reason, attempts: first.attempts + attempts, lastAttemptAt: now },
      ...held.map((event) => ({
        ...event,
        behind: first.position,
        reason: `waits behind the parked event at position ${first.position} of ${first.streamId}`,
      })),
    ]);
  }
}
