// Parked events: the sequenced dead letters of the followers of the log (the projector, the
// publisher, the forgetter). An event a follower cannot handle (this release cannot read it, or its
// handler keeps failing) is parked here with the reason, and the follower goes on with the rest of
// the log. Each entity keeps its order: the later events of a stream with a parked event are held
// behind it, parked too, until it is retried and handled or an operator skips it. Each follower
// keeps its own lot; the projector one per generation of the read models, so that a rebuild parks
// afresh. The lot names events by their place in the log, never copies them: what they hold (a
// person's fields) stays in the event store, sealed, and erasure reaches it there.
import type { FollowerName } from '@eventide/kernel/events/followers.ts';

/** What an operator asked of a parked event, until its follower has done it. */
export type ParkedRequest = { action: 'retry'; by: string; at: string } | { action: 'skip'; by: string; at: string; reason: string };

export interface ParkedEvent {
  /** Whose: the follower's lot (`publisher`, `forgetter`, `projector@g<generation>`: lotOf). */
  lot: string;
  position: number;
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  /** When the event was recorded in the log. */
  time: string;
  /** Why it is parked: what failed, or, for one held behind its stream's first parked event, that. */
  reason: string;
  /** Set on an event held behind an earlier one of its stream: that one's position. */
  behind?: number;
  /** How often it was handled and failed (0 for one that was only held). */
  attempts: number;
  parkedAt: string;
  lastAttemptAt: string;
  request?: ParkedRequest;
}

/** A follower's lot: the projector's is per generation of the read models. */
export function lotOf(follower: FollowerName, generation?: number): string {
  return follower === 'projector' ? `projector@g${generation ?? 1}` : follower;
}

/** The follower (and generation) a lot belongs to. */
export function followerOf(lot: string): { follower: FollowerName; generation?: number } {
  const [follower, generation] = lot.split('@g') as [FollowerName, string | undefined];
  return generation === undefined ? { follower } : { follower, generation: Number(generation) };
}

export interface ParkedCounts {
  /** Events that failed: the first parked event of their stream. */
  parked: number;
  /** Events held behind one of those. */
  held: number;
  /** The oldest one that failed, for readiness to name. */
  oldest?: ParkedEvent;
}

export interface ParkedEvents {
  /** Parks the events, or updates those parked already (same lot and position). */
  park(events: readonly ParkedEvent[]): Promise<void>;
  /**
   * A lot's events (every lot's when absent), in log order (by position, then lot) from after
   * `after`: a page of at most `limit`.
   */
  list(query: { lot?: string; after?: { position: number; lot: string }; limit: number }): Promise<ParkedEvent[]>;
  /** One parked event, if it is (still) there. */
  get(lot: string, position: number): Promise<ParkedEvent | undefined>;
  /** The lot's parked events of one stream, in order: the first, and those held behind it. */
  ofStream(lot: string, streamId: string): Promise<ParkedEvent[]>;
  /** The streams with an event parked in the lot, each with its first parked position. */
  blockedStreams(lot: string): Promise<Map<string, number>>;
  /**
   * Notes an operator's request on the lot's failed events (one, by position, or all): the
   * follower acts on it between its batches. Returns how many it was noted on.
   */
  request(lot: string, which: number | 'all', request: ParkedRequest): Promise<number>;
  /** The lot's events with a request waiting, in log order. */
  requested(lot: string, limit: number): Promise<ParkedEvent[]>;
  /** Takes events out of the lot once they were handled, or skipped. */
  release(lot: string, positions: readonly number[]): Promise<void>;
  /** Per lot that holds any. */
  counts(): Promise<Map<string, ParkedCounts>>;
  /** Empties a lot: a generation of the read models that was dropped. */
  forget(lot: string): Promise<void>;
  close(): Promise<void>;
}
