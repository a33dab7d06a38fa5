// An event store that keeps personal data sealed at rest: it seals the personal fields of what
// is appended (fields.ts says which) under the subject's key, and opens them on every read. Once
// the subject is forgotten (its key destroyed) those fields read as null and the event says
// `forgotten`: replays, rebuilds and subscribers go on, with nothing personal left to show.
// Whatever adapter it wraps; the adapter itself only ever sees ciphertext.
import { createSecretKey } from 'node:crypto';
import type { KeyStore } from '../key-store/port.ts';
import { isReached, type EventStore, type OfTypes, type Snapshot, type StreamAppend, type SubscribeOptions } from '../event-store/port.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { openFields, sealFields } from './fields.ts';
import { sealedSubjects, hasPersonalFields, subjectOf } from '@eventide/kernel/events/personal-fields.ts';
import { activeKeyObjects, seal, unseal } from './sealed.ts';
import { isSealed, type Sealed } from '@eventide/kernel/events/personal-fields.ts';
import { batches } from '../event-store/batches.ts';

/** A person's snapshot is sealed whole, as this one field. */
const SNAPSHOT_FIELD = 'snapshot';
/** The most events a subscription opens with one lookup of keys: a page of the stores' reads. */
const OPEN_AT_ONCE = 500;

export function sealingEventStore(store: EventStore, keys: KeyStore): EventStore {
  async function sealAppend(append: StreamAppend): Promise<StreamAppend> {
    const subject = subjectOf(append.streamId);
    if (subject === undefined || !append.events.some((e) => hasPersonalFields(e.type))) return append;
    // A stream that must not exist yet is the first of its subject's, or nearly (an account and a user are one subject).
    const asked = keys.keyFor(subject, { likelyNew: append.expectedRevision === 'no_stream' });
    // Asked after the key: the store's group commit then comes right behind the keys' batch.
    store.reserveCommit?.();
    const key = createSecretKey(await asked);
    return { ...append, events: append.events.map((e) => ({ ...e, data: sealFields(e.type, e.data, subject, key) })) };
  }

  /** Opens the events' sealed fields with one lookup of all the keys they need. */
  async function open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const subjects = new Set(events.flatMap((e) => sealedSubjects(e.type, e.data)));
    if (subjects.size === 0) return events;
    const keyObjects = activeKeyObjects(await keys.lookup([...subjects]));
    const keyOf = (subject: string) => keyObjects.get(subject);
    return events.map((event) => {
      const { data, erased } = openFields(event.type, event.data, keyOf);
      return erased ? { ...event, data, forgotten: true } : data === event.data ? event : { ...event, data };
    });
  }

  return {
    async append(streamId, events, options) {
      const sealed = await sealAppend({ streamId, events, expectedRevision: options.expectedRevision });
      return store.append(streamId, sealed.events, options);
    },
    async appendInOrder(appends) {
      return store.appendInOrder(await Promise.all(appends.map(sealAppend)));
    },
    async readStream(streamId, options) {
      return open(await store.readStream(streamId, options));
    },
    async readCausedBy(streamId, causationId) {
      return open(await store.readCausedBy(streamId, causationId));
    },
    async readAll(options) {
      return open(await store.readAll(options));
    },
    subscribeToAll(options) {
      return options?.keepSealed ? store.subscribeToAll(options) : opened((o) => store.subscribeToAll(o), options);
    },
    subscribeToTypes(types, options) {
      return options?.keepSealed ? store.subscribeToTypes(types, options) : opened((o) => store.subscribeToTypes(types, o), options);
    },

    async saveSnapshot(streamId, snapshot) {
      const subject = subjectOf(streamId);
      if (subject === undefined) return store.saveSnapshot(streamId, snapshot);
      const state = (await keys.lookup([subject])).get(subject)!;
      // A snapshot is a cache: none is kept of a person who was forgotten.
      if (state.state === 'forgotten') return;
      // A person whose events predate sealing gets their key here.
      const key = state.state === 'active' ? state.key : await keys.keyFor(subject);
      return store.saveSnapshot(streamId, { ...snapshot, state: seal(key, subject, SNAPSHOT_FIELD, snapshot.state) });
    },
    async readSnapshot(streamId, options) {
      const snapshot = await store.readSnapshot(streamId, options);
      if (!snapshot || !isSealed(snapshot.state)) return snapshot;
      return openSnapshot(snapshot, snapshot.state);
    },

    head: () => store.head(),
    ...(store.longestStreams ? { longestStreams: (limit: number) => store.longestStreams!(limit) } : {}),
    close: () => store.close(),
  };

  /**
   * A subscription's events opened a group at a time (what the store has ready), with one lookup of
   * their keys, not one per event: a follower catching up on sign-ups made a statement on keys.db
   * for each. How far a subscription to some types has read passes as it comes.
   */
  async function* opened<T extends OfTypes>(
    subscribe: (options: SubscribeOptions) => AsyncIterable<T>,
    options: SubscribeOptions | undefined,
  ): AsyncGenerator<T> {
    const subscription = new AbortController();
    const signal = options?.signal ? AbortSignal.any([options.signal, subscription.signal]) : subscription.signal;
    for await (const group of batches(subscribe({ ...options, signal }), OPEN_AT_ONCE, () => subscription.abort())) {
      const events = await open(group.filter((item): item is T & RecordedEvent => !isReached(item)));
      let next = 0;
      for (const item of group) yield isReached(item) ? item : (events[next++] as T);
    }
  }

  /** The snapshot with its state opened; none (a cache miss: the events are folded) when it cannot be. */
  async function openSnapshot(snapshot: Snapshot, sealed: Sealed): Promise<Snapshot | undefined> {
    const subject = sealed.$sealed.subject;
    const state = (await keys.lookup([subject])).get(subject)!;
    if (state.state !== 'active') return undefined;
    try {
      return { ...snapshot, state: unseal(state.key, sealed, SNAPSHOT_FIELD) };
    } catch {
      return undefined;
    }
  }
}
