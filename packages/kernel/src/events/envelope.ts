// The public envelope of a recorded event, or nothing for events that never leave the write side.
import type { JsonValue, RecordedEvent } from './recorded.ts';
import { withSealedAsNull } from './personal-fields.ts';
import { isEventName, parsePayload, type AnyEventEnvelope, type EventName, type Model, type PayloadOf } from './catalogue.ts';
import { currentSchemaVersion, schemaVersionOf } from './versions.ts';

/**
 * The payload checked against its name's schema with any sealed field as null, and as it was when
 * it holds sealed fields (they stay sealed, for whoever has the key to open them).
 */
export function checkedPayload<N extends EventName>(type: N, data: JsonValue): PayloadOf<N> {
  const masked = withSealedAsNull(type, data);
  const checked = parsePayload(type, masked);
  return masked === data ? checked : (data as PayloadOf<N>);
}

/**
 * An event read with its personal fields sealed (the publisher's) keeps them sealed: its payload
 * is checked with them as null, and goes out as it was, for the subscriber SDK to open. The event
 * comes from the store the services open, which upcast it: its payload is of the current version,
 * and one that is not fails the check.
 */
export function toEnvelope(event: RecordedEvent): AnyEventEnvelope | undefined {
  if (!isEventName(event.type)) return undefined;
  if (event.unreadable !== undefined) throw new Error(`the event at position ${event.position} cannot be checked: ${event.unreadable}`);
  return {
    ...envelopeOf(event),
    schemaVersion: currentSchemaVersion(event.type),
    // Checked on the way out: only what the catalogue allows reaches the bus.
    data: checkedPayload(event.type, event.data),
  } as AnyEventEnvelope;
}

/**
 * The envelope of an event this release cannot read (`unreadable`: a newer release wrote it), with
 * its data and version as written, unchecked: for an admin's stream (GET /events), whose
 * subscriber may know that version, and whose SDK dead-letters it when it does not. Never for the bus.
 */
export function asWritten(event: RecordedEvent): AnyEventEnvelope | undefined {
  if (!isEventName(event.type)) return undefined;
  return { ...envelopeOf(event), schemaVersion: schemaVersionOf(event.metadata), data: event.data } as AnyEventEnvelope;
}

/** What every envelope of the event says besides its payload and its version. */
function envelopeOf(event: RecordedEvent) {
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: event.revision,
    position: event.position,
    time: event.time,
    metadata: {
      correlationId: event.metadata.correlationId,
      causationId: event.metadata.causationId,
      actor: event.metadata.actor,
      ...(event.metadata.traceparent ? { traceparent: event.metadata.traceparent } : {}),
      ...(event.metadata.reason ? { reason: event.metadata.reason } : {}),
    },
    ...(event.forgotten ? { forgotten: true } : {}),
  };
}

export function modelOf(envelope: AnyEventEnvelope): Model {
  return envelope.type.split(':')[0] as Model;
}

/** The entity the event is about: the Kafka key, so that one entity's events stay in order. */
export function entityIdOf(envelope: AnyEventEnvelope): string {
  return envelope.streamId.slice(envelope.streamId.indexOf('-') + 1);
}
