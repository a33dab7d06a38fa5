// The event store with events that evolve (packages/kernel/src/events/versions.ts): every public
// event appended is marked with its payload's schema version, and every one read is upcast to the
// current version, so that folds, projections, the publisher and every route read one shape
// whatever release wrote the event. What the store holds is never rewritten. Private events (the
// write side's own) pass through as they are.
//
// An event this release cannot read (written by a newer release, or whose upcast fails) fails a
// read of its stream, which is a fold that cannot skip it (the HTTP edge answers 503). To the
// followers of the whole log it comes as stored, marked `unreadable` with the reason, so that one
// event parks alone instead of stopping every follower at it (docs/operations.md#faults).
import { isEventName } from '@eventide/kernel/events/catalogue.ts';
import type { NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import {
  currentSchemaVersion,
  upcast,
  UPCASTERS,
  schemaVersionOf,
  type Payload,
  type Upcasters,
} from '@eventide/kernel/events/versions.ts';
import { isReached, type EventStore, type StreamAppend } from './port.ts';

/** `upcasters`: what the release knows of each event's versions; this one's unless a test plays another. */
export function versionedEventStore(store: EventStore, upcasters: Upcasters = UPCASTERS): EventStore {
  function marked(event: NewEvent): NewEvent {
    if (!isEventName(event.type)) return event;
    return { ...event, metadata: { ...event.metadata, schemaVersion: currentSchemaVersion(event.type, upcasters) } };
  }

  /** The event as the current version, or itself when it is one already (or private); throws when it cannot be read. */
  function current(event: RecordedEvent): RecordedEvent {
    if (event.unreadable !== undefined)
      throw new Error(`the event at position ${event.position} of ${event.streamId} cannot be read: ${event.unreadable}`);
    if (!isEventName(event.type)) return event;
    const version = schemaVersionOf(event.metadata);
    const latest = currentSchemaVersion(event.type, upcasters);
    if (version === latest) return event;
    return {
      ...event,
      data: upcast(event.type, version, event.data as Payload, upcasters),
      metadata: { ...event.metadata, schemaVersion: latest },
    };
  }

  /** For followers: an event that cannot be read comes as stored, saying why. */
  function currentOrMarked(event: RecordedEvent): RecordedEvent {
    if (event.unreadable !== undefined) return event;
    try {
      return current(event);
    } catch (error) {
      return { ...event, unreadable: error instanceof Error ? error.message : String(error) };
    }
  }

  const markAppend = (append: StreamAppend): StreamAppend => ({ ...append, events: append.events.map(marked) });

  return {
    append: (streamId, events, options) => store.append(streamId, events.map(marked), options),
    appendInOrder: (appends) => store.appendInOrder(appends.map(markAppend)),
    readStream: async (streamId, options) =>
      (await store.readStream(streamId, options)).map(options?.unreadable === 'mark' ? currentOrMarked : current),
    readCausedBy: async (streamId, causationId) => (await store.readCausedBy(streamId, causationId)).map(current),
    readAll: async (options) => (await store.readAll(options)).map(currentOrMarked),
    async *subscribeToAll(options) {
      for await (const event of store.subscribeToAll(options)) yield currentOrMarked(event);
    },
    async *subscribeToTypes(types, options) {
      // Upcasting changes an event's data, never its type: the store's filter is the right one.
      for await (const item of store.subscribeToTypes(types, options)) yield isReached(item) ? item : currentOrMarked(item);
    },
    // A snapshot is of state, not of events: its version names the code that folded it (the
    // write side ties it to the events' versions too: command-service/src/load.ts).
    readSnapshot: (streamId, options) => store.readSnapshot(streamId, options),
    saveSnapshot: (streamId, snapshot) => store.saveSnapshot(streamId, snapshot),
    head: () => store.head(),
    ...(store.longestStreams ? { longestStreams: (limit: number) => store.longestStreams!(limit) } : {}),
    close: () => store.close(),
  };
}
