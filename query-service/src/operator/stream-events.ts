// One stream's events for the operator's console (GET /admin/streams/{streamId}/events), oldest
// first, a page at a time: each with its place, its type and version, and its payload with every
// personal field masked (events/personal-fields.ts names them: names, addresses, password hashes,
// provider subjects), so that an operator tracing a fault sees what happened, not to whom. A
// forgotten person's fields are gone in any case. An event this release cannot read is shown as
// stored, saying why.
import { PERSONAL_FIELDS, mapFields } from '@eventide/kernel/events/personal-fields.ts';
import type { JsonValue, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { schemaVersionOf } from '@eventide/kernel/events/versions.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';

export interface StreamPage {
  items: ReturnType<typeof shown>[];
  /** The revision the next page starts after, or undefined on the last. */
  next: number | undefined;
}

/** The event as the console shows it. */
function shown(event: RecordedEvent) {
  const masked: string[] = [];
  const paths = PERSONAL_FIELDS[event.type] ?? [];
  const data = mapFields(event.data, paths, (_value: JsonValue, field: string) => {
    masked.push(field);
    return null;
  });
  const { correlationId, causationId, actor } = event.metadata;
  return {
    position: event.position,
    revision: event.revision,
    eventId: event.id,
    type: event.type,
    time: event.time,
    schemaVersion: schemaVersionOf(event.metadata),
    ...(event.unreadable === undefined ? {} : { unreadable: event.unreadable }),
    data,
    masked,
    forgotten: event.forgotten === true,
    metadata: { correlationId, causationId, actor },
  };
}

/** The page of the stream's events after revision `after` (-1: from the first). */
export async function streamPage(eventStore: EventStore, streamId: string, after: number, limit: number): Promise<StreamPage> {
  // One more than asked, to know whether a page follows.
  const events = await eventStore.readStream(streamId, { fromRevision: after + 1, toRevision: after + limit + 1, unreadable: 'mark' });
  const page = events.slice(0, limit);
  return { items: page.map(shown), next: events.length > limit ? page[page.length - 1]!.revision : undefined };
}
