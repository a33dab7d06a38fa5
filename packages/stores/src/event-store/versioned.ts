// The event store with events that evolve (packages/kernel/src/events/versions.ts): every public
// event appended is marked with its payload's schema version, and every one read is upcast to the
// current version, so that folds, projections, the publisher and every route read one shape
// whatever release wrote the event. What the store holds is never rewritten. Private events (the
// write side's own) pass through as they are.
import { isEventName } from '@eventide/kernel/events/catalogue.ts';
import type { NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { currentVersion, upcast, versionOf, type Payload } from '@eventide/kernel/events/versions.ts';
import type { EventStore, StreamAppend } from './port.ts';

function marked(event: NewEvent): NewEvent {
  if (!isEventName(event.type)) return event;
  return { ...event, metadata: { ...event.metadata, schemaVersion: currentVersion(event.type) } };
}

/** The event as the current version, or itself when it is one already (or private). */
export function upcastEvent(event: RecordedEvent): RecordedEvent {
  if (!isEventName(event.type)) return event;
  const version = versionOf(event.metadata);
  const current = currentVersion(event.type);
  if (version === current) return event;
  return {
    ...event,
    data: upcast(event.type, version, event.data as Payload),
    metadata: { ...event.metadata, schemaVersion: current },
  };
}

const upcastAll = (events: RecordedEvent[]) => events.map(upcastEvent);
const markAppend = (append: StreamAppend): StreamAppend => ({ ...append, events: append.events.map(marked) });

export function versionedEventStore(store: EventStore): EventStore {
  return {
    append: (streamId, events, options) => store.append(streamId, events.map(marked), options),
    appendInOrder: (appends) => store.appendInOrder(appends.map(markAppend)),
    readStream: async (streamId, options) => upcastAll(await store.readStream(streamId, options)),
    readCausedBy: async (streamId, causationId) => upcastAll(await store.readCausedBy(streamId, causationId)),
    readAll: async (options) => upcastAll(await store.readAll(options)),
    async *subscribeToAll(options) {
      for await (const event of store.subscribeToAll(options)) yield upcastEvent(event);
    },
    // A snapshot is of state, not of events: its version names the code that folded it (the
    // write side ties it to the events' versions too: command-service/src/load.ts).
    readSnapshot: (streamId, options) => store.readSnapshot(streamId, options),
    saveSnapshot: (streamId, snapshot) => store.saveSnapshot(streamId, snapshot),
    head: () => store.head(),
    close: () => store.close(),
  };
}
