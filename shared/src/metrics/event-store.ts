// The event store as the services see it, with each append timed (eventstore_append_duration_seconds).
import type { Histogram } from 'prom-client';
import { type EventStore, WrongExpectedRevisionError } from '../event-store/port.ts';

export function meteredEventStore(store: EventStore, appendSeconds: Histogram<'outcome'>): EventStore {
  const timed =
    <A extends unknown[], R>(append: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const end = appendSeconds.startTimer();
      try {
        const result = await append(...args);
        end({ outcome: 'ok' });
        return result;
      } catch (error) {
        end({ outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' });
        throw error;
      }
    };
  return {
    append: timed((streamId, events, options) => store.append(streamId, events, options)),
    appendInOrder: timed((appends) => store.appendInOrder(appends)),
    readStream: (streamId, options) => store.readStream(streamId, options),
    readCausedBy: (streamId, causationId) => store.readCausedBy(streamId, causationId),
    readSnapshot: (streamId, options) => store.readSnapshot(streamId, options),
    saveSnapshot: (streamId, snapshot) => store.saveSnapshot(streamId, snapshot),
    readAll: (options) => store.readAll(options),
    head: () => store.head(),
    subscribeToAll: (options) => store.subscribeToAll(options),
    close: () => store.close(),
  };
}
