// The event store as the services see it, with each append timed (eventstore_append_duration_seconds).
import type { Histogram } from 'prom-client';
import { withAppends } from '@eventide/stores/event-store/decorate.ts';
import { type EventStore, WrongExpectedRevisionError } from '@eventide/stores/event-store/port.ts';

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
  return withAppends(store, {
    append: timed((streamId, events, options) => store.append(streamId, events, options)),
    appendInOrder: timed((appends) => store.appendInOrder(appends)),
  });
}
