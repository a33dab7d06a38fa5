// The event store port: what every adapter (embedded SQLite, EventStoreDB) promises.
// Streams hold one entity each; the global log orders every event of every stream.
import type { JsonValue, NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { isUuid } from '@eventide/kernel/ids.ts';

/**
 * What an append expects of the stream:
 * - `any`: no check;
 * - `no_stream`: the stream must not exist yet;
 * - `stream_exists`: the stream must hold at least one event;
 * - a number: the revision of the stream's last event must be exactly this.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last event of this append: the stream's revision right after it. */
  nextRevision: number;
  /** Global position of the last event of this append (-1 where the server does not say). */
  position: number;
  /** When the store recorded the events (ISO 8601): the `time` a read of them will show. */
  time: string;
}

/** One stream's part of appendInOrder. */
export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export interface ReadStreamOptions {
  /** The first revision to read; 0 when absent. */
  fromRevision?: number;
  /** The last revision to read; the stream's end when absent. */
  toRevision?: number;
  /**
   * An event this release cannot read fails the read (`throw`, the default: a fold cannot skip
   * it), or comes as stored, marked `unreadable` (`mark`: for a console that shows the log).
   */
  unreadable?: 'throw' | 'mark';
}

/**
 * A stream's state folded up to one of its events, kept so that loading the stream reads only
 * the events after it. A cache: a missing or unreadable snapshot costs a longer read, nothing else.
 */
export interface Snapshot {
  /** What folded it (the aggregate's code): a snapshot of another version is never used. */
  version: string;
  /** Revision, global position and time of the last event folded in. */
  revision: number;
  position: number;
  time: string;
  state: JsonValue;
}

/**
 * How late a snapshot may be: its last event at or before a revision of the stream, a global
 * position, or a time (ISO 8601, as the store gives events' times): a read of the entity as of
 * then starts from it.
 */
export type SnapshotBound = number | { position: number } | { time: string };

export interface SubscribeOptions {
  /** Deliver events after this global position (exclusive); 0 or absent starts at the beginning. */
  after?: number;
  /** Deliver events from this global position (inclusive) instead: a position the store gave, as `after` may not be one on every engine. */
  from?: number;
  /** Ends the subscription: the iterator returns without an error. */
  signal?: AbortSignal;
  /**
   * Deliver personal fields as they are at rest, sealed (docs/privacy.md), instead of opened: for
   * followers that carry events on (the bus publisher) or need nothing personal (the forgetter).
   * Only the sealing wrapper opens anything, so the adapters themselves always deliver them so.
   */
  keepSealed?: boolean;
  /**
   * subscribeToAll calls it when it has read events, before it hands the first of them on: a
   * follower's hint to work that can wait (a read store's merging, between-writes.ts) that a write
   * is on its way. The adapters that read the log a page at a time call it once a page,
   * EventStoreDB's (whose client hands events over one by one) once an event.
   */
  onEvents?: () => void;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /**
   * Appends to several streams in this order, each checked as `append` checks it, and none after
   * one that fails (the call rejects with that one's error). The embedded store writes them all or
   * none, in one commit; EventStoreDB writes them one by one, so a failure there leaves the earlier
   * ones written: callers must be right either way.
   */
  appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]>;
  /**
   * Says that an append is on its way, once what it awaits (a key being made) has come: a store
   * that commits appends in groups keeps its next group for it. A hint; it may be ignored.
   */
  reserveCommit?(): void;
  /** The stream's events in revision order, or a range of them; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * The stream's events whose metadata names this causation id (the command that caused them),
   * in revision order: how a retried command finds what it did. Fast for name-based (v5) UUIDs,
   * the only command ids a retry repeats; other ids may cost a read of the stream.
   */
  readCausedBy(streamId: string, causationId: string): Promise<RecordedEvent[]>;
  /** The newest snapshot of this version at or before `atOrBefore` (the newest of all when absent). */
  readSnapshot(streamId: string, options: { version: string; atOrBefore?: SnapshotBound }): Promise<Snapshot | undefined>;
  /**
   * Keeps a snapshot of events already in the stream. Snapshots of other versions of the stream
   * may be dropped. Rejects a snapshot whose last event is not in the stream as it claims.
   */
  saveSnapshot(streamId: string, snapshot: Snapshot): Promise<void>;
  /** Up to `limit` events of the global log after position `after`, in order. */
  readAll(options?: { after?: number; limit?: number }): Promise<RecordedEvent[]>;
  /** The position of the last event in the log; 0 when it is empty. */
  head(): Promise<number>;
  /**
   * The longest streams, longest first, with their lengths: those of SNAPSHOT_AFTER_EVENTS events or
   * more, which the write side keeps snapshots of, so that the answer costs a read of the
   * snapshots, not of the log. Absent where the engine cannot tell cheaply (EventStoreDB).
   */
  longestStreams?(limit: number): Promise<Array<{ streamId: string; events: number }>>;
  /** Catches up from `after`, then stays live; ordered, gapless and resumable from any position it yielded. */
  subscribeToAll(options?: SubscribeOptions): AsyncIterable<RecordedEvent>;
  /**
   * subscribeToAll's events of these types only, for a follower that acts on few (the deadlines,
   * on orders): between them, `{ reached }` says the log is read up to that position, so that the
   * follower moves its checkpoint past the others without each being read, parsed and handed to
   * it. Resumable from any event or position it yielded. Where the engine cannot filter as it
   * reads, the others are read and left out here (types-subscription.ts).
   */
  subscribeToTypes(types: readonly string[], options?: SubscribeOptions): AsyncIterable<OfTypes>;
  close(): Promise<void>;
}

/** What a subscription to some types yields between their events: the log is read up to here, inclusive. */
export interface Reached {
  reached: number;
}

export type OfTypes = RecordedEvent | Reached;

export const isReached = (item: OfTypes): item is Reached => 'reached' in item;

export class WrongExpectedRevisionError extends Error {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  /** -1 when the stream does not exist. */
  readonly actual: number;
  constructor(streamId: string, expected: ExpectedRevision, actual: number) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${actual === -1 ? 'no stream' : actual}`);
    this.name = 'WrongExpectedRevisionError';
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

/** An event id that is already in the log somewhere other than where this append would repeat it. */
export class EventIdReusedError extends Error {
  readonly eventId: string;
  constructor(eventId: string, detail: string) {
    super(`event id ${eventId} is already used: ${detail}`);
    this.name = 'EventIdReusedError';
    this.eventId = eventId;
  }
}

export function describeExpected(expected: ExpectedRevision): string {
  return typeof expected === 'number' ? `revision ${expected}` : expected.replace('_', ' ');
}

/** Refuses what no adapter writes: no appends, an append of no events, an event id that is not a UUID. */
export function checkAppends(appends: readonly StreamAppend[]): void {
  if (appends.length === 0) throw new TypeError('appendInOrder needs at least one append');
  for (const { events } of appends) {
    if (events.length === 0) throw new TypeError('an append needs at least one event');
    for (const event of events) {
      if (!isUuid(event.id)) throw new TypeError(`event id ${JSON.stringify(event.id)} is not a UUID`);
    }
  }
}

/** A name-based (v5) UUID: the only command ids a retry repeats, so the only causes the stores index. */
export const NAME_BASED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5/i;
