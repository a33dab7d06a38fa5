// A store that notes each stream it is asked to read (events or a snapshot), for the tests that
// show a command reads nothing it need not: a new entity, a new address's claim.
import type { EventStore } from '@eventide/stores/event-store/port.ts';

export function notingReads(store: EventStore): { store: EventStore; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    store: {
      ...store,
      readStream(streamId, options) {
        reads.push(streamId);
        return store.readStream(streamId, options);
      },
      readSnapshot(streamId, options) {
        reads.push(streamId);
        return store.readSnapshot(streamId, options);
      },
    },
  };
}
