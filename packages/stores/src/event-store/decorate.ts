// For wrappers that watch the writes (metrics, tracing): the store with its two appends replaced
// and every other method passed through, so that a method added to the port is never forgotten by one.
import type { EventStore } from './port.ts';

export function withAppends(store: EventStore, appends: Pick<EventStore, 'append' | 'appendInOrder'>): EventStore {
  return {
    append: appends.append,
    appendInOrder: appends.appendInOrder,
    readStream: (streamId, options) => store.readStream(streamId, options),
    readCausedBy: (streamId, causationId) => store.readCausedBy(streamId, causationId),
    readSnapshot: (streamId, options) => store.readSnapshot(streamId, options),
    saveSnapshot: (streamId, snapshot) => store.saveSnapshot(streamId, snapshot),
    readAll: (options) => store.readAll(options),
    head: () => store.head(),
    ...(store.longestStreams ? { longestStreams: (limit: number) => store.longestStreams!(limit) } : {}),
    subscribeToAll: (options) => store.subscribeToAll(options),
    subscribeToTypes: (types, options) => store.subscribeToTypes(types, options),
    close: () => store.close(),
  };
}
