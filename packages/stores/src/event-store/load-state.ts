// Loads a stream's state from its newest snapshot plus the events after it, so that a command
// reads a bounded number of events however long its entity's history. A load that had to fold
// SNAPSHOT_AFTER_EVENTS or more leaves a snapshot behind for the next one. Reads of the past (an
// entity as of a moment, a page of its history) start from the newest snapshot before what they
// need, and leave the store as they found it.
import { createHash } from 'node:crypto';
import type { EventStore, Snapshot, SnapshotBound } from './port.ts';
import type { JsonValue, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { fold, type Recorded } from '@eventide/kernel/models/model.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';

/**
 * Short streams (most entities) never get a snapshot; a long one folds at most this many events
 * before its next snapshot. Measured in docs/benchmarks.md (PATCH at stream length 1 vs 10,000).
 */
export const SNAPSHOT_AFTER_EVENTS = 32;

/** What a stream's state is folded with; its snapshots are tied to this code (snapshotVersionOf). */
export interface Foldable<State> {
  initialState: State;
  evolve(state: State, event: Recorded<{ type: string; data: unknown }>): State;
  /**
   * Raise it when evolve's results change through code outside evolve itself (a helper it
   * calls): changes to evolve's own source or to the initial state retire old snapshots anyway.
   */
  snapshotVersion?: number;
}

export interface LoadedState<State> {
  streamId: string;
  state: State;
  /** Revision of the last event folded in; -1 when the stream does not exist. */
  revision: number;
  /** Global position and time of that event; 0 and undefined when there is none. */
  position: number;
  time: string | undefined;
}

/** What a stream with no events loads as: the initial state, before any revision. */
export function unwrittenState<State>(foldable: Foldable<State>, streamId: string): LoadedState<State> {
  return { streamId, state: foldable.initialState, revision: -1, position: 0, time: undefined };
}

/** Per foldable, not per evolve: two foldables may share evolve and differ in initial state or declared version. */
const versions = new WeakMap<Foldable<unknown>, string>();

/**
 * A snapshot is used only by code that folds as the code that wrote it did: the version is a hash
 * of evolve's source, the initial state, the declared version and the events' schema versions (a
 * new version may carry a field the old state lacks). A change of any of them makes old snapshots
 * invisible (and replaced on the next long load), never wrong.
 */
export function snapshotVersionOf(foldable: Foldable<unknown>): string {
  let version = versions.get(foldable);
  if (!version) {
    const eventVersions = EVENT_NAMES.map((name) => currentSchemaVersion(name));
    const parts = JSON.stringify([foldable.snapshotVersion ?? 1, foldable.evolve.toString(), foldable.initialState, eventVersions]);
    version = createHash('sha256').update(parts).digest('base64url').slice(0, 22);
    versions.set(foldable, version);
  }
  return version;
}

/** The state of `streamId`, or its state as of revision `upTo` (what an earlier request saw). */
export async function loadState<State>(
  store: EventStore,
  foldable: Foldable<State>,
  streamId: string,
  { upTo }: { upTo?: number } = {},
): Promise<LoadedState<State>> {
  const version = snapshotVersionOf(foldable as Foldable<unknown>);
  const snapshot = await store.readSnapshot(streamId, { version, ...(upTo === undefined ? {} : { atOrBefore: upTo }) });
  const events = await store.readStream(streamId, {
    fromRevision: snapshot ? snapshot.revision + 1 : 0,
    ...(upTo === undefined ? {} : { toRevision: upTo }),
  });
  const start = snapshot ? (snapshot.state as State) : foldable.initialState;
  const state = fold(foldable, events, start);
  const last = events.at(-1);
  const loaded: LoadedState<State> = {
    streamId,
    state,
    revision: last?.revision ?? snapshot?.revision ?? -1,
    position: last?.position ?? snapshot?.position ?? 0,
    time: last?.time ?? snapshot?.time,
  };
  if (events.length >= SNAPSHOT_AFTER_EVENTS && last) {
    const next: Snapshot = { version, revision: last.revision, position: last.position, time: last.time, state: state as JsonValue };
    // A snapshot is a cache: if it cannot be kept, the next load folds more events, nothing else.
    void store.saveSnapshot(streamId, next).catch(() => undefined);
  }
  return loaded;
}

/** Events a read of the past reads at a time after its snapshot: about two snapshots' worth. */
const PAGE = 2 * SNAPSHOT_AFTER_EVENTS;

/**
 * The state of `streamId` after its last event at or before a global position or a time (ISO
 * 8601, as the store gives events' times), from the newest snapshot before then; revision -1 when
 * the stream had no event by then. Reads the events after the snapshot a page at a time, so that
 * a moment early in a long stream does not read the rest of it.
 */
export async function loadStateAsOf<State>(
  store: EventStore,
  foldable: Foldable<State>,
  streamId: string,
  at: Exclude<SnapshotBound, number>,
): Promise<LoadedState<State>> {
  const version = snapshotVersionOf(foldable as Foldable<unknown>);
  const snapshot = await store.readSnapshot(streamId, { version, atOrBefore: at });
  const reached =
    'position' in at ? (event: RecordedEvent) => event.position <= at.position : (event: RecordedEvent) => event.time <= at.time;
  let state = snapshot ? (snapshot.state as State) : foldable.initialState;
  let last: Pick<LoadedState<State>, 'revision' | 'position' | 'time'> = snapshot ?? { revision: -1, position: 0, time: undefined };
  for (let from = last.revision + 1; ; from += PAGE) {
    const events = await store.readStream(streamId, { fromRevision: from, toRevision: from + PAGE - 1 });
    const cut = events.findIndex((event) => !reached(event));
    const taken = cut < 0 ? events : events.slice(0, cut);
    state = fold(foldable, taken, state);
    last = taken.at(-1) ?? last;
    if (cut >= 0 || events.length < PAGE) return { streamId, state, ...last };
  }
}

/**
 * The stream's events of revisions `from` to `to` (its end when absent), and the state before the
 * first of them, folded from the newest snapshot before `from`.
 */
export async function loadEventsFrom<State>(
  store: EventStore,
  foldable: Foldable<State>,
  streamId: string,
  { from, to }: { from: number; to?: number },
): Promise<{ before: State; events: RecordedEvent[] }> {
  const version = snapshotVersionOf(foldable as Foldable<unknown>);
  const snapshot = from > 0 ? await store.readSnapshot(streamId, { version, atOrBefore: from - 1 }) : undefined;
  const read = await store.readStream(streamId, {
    fromRevision: snapshot ? snapshot.revision + 1 : 0,
    ...(to === undefined ? {} : { toRevision: to }),
  });
  const cut = read.findIndex((event) => event.revision >= from);
  const events = cut < 0 ? [] : read.slice(cut);
  const before = fold(foldable, cut < 0 ? read : read.slice(0, cut), snapshot ? (snapshot.state as State) : foldable.initialState);
  return { before, events };
}

/**
 * The stream's last `count` events (none when it has none), and the state before the first of
 * them. The newest snapshot and the events after it are read once; only a page that reaches back
 * before that snapshot reads again, from the snapshot before it.
 */
export async function loadLastEvents<State>(
  store: EventStore,
  foldable: Foldable<State>,
  streamId: string,
  count: number,
): Promise<{ before: State; events: RecordedEvent[] }> {
  const snapshot = await store.readSnapshot(streamId, { version: snapshotVersionOf(foldable as Foldable<unknown>) });
  const tail = await store.readStream(streamId, { fromRevision: snapshot ? snapshot.revision + 1 : 0 });
  const end = tail.at(-1)?.revision ?? snapshot?.revision ?? -1;
  const from = Math.max(0, end - count + 1);
  if (end < 0) return { before: foldable.initialState, events: [] };
  if (snapshot && from <= snapshot.revision) return loadEventsFrom(store, foldable, streamId, { from, to: end });
  const cut = tail.length - (end - from + 1);
  return {
    before: fold(foldable, tail.slice(0, cut), snapshot ? (snapshot.state as State) : foldable.initialState),
    events: tail.slice(cut),
  };
}
