// A subscription to some types of event (EventStore.subscribeToTypes) made from a subscription to
// all of them, for an engine that cannot filter where it reads (EventStoreDB here): every event is
// still read, and only those of the types are handed on. The embedded store and PostgreSQL filter
// in their queries instead, so that the others are never read out of the file at all.
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { OfTypes } from './port.ts';

/** `all`'s events of these types, each other one passed as how far the log is read. */
export async function* ofTypes(all: AsyncIterable<RecordedEvent>, types: readonly string[]): AsyncGenerator<OfTypes> {
  const wanted = new Set(types);
  for await (const event of all) yield wanted.has(event.type) ? event : { reached: event.position };
}
