// The public envelope of a recorded event, or nothing for events that never leave the write side.
import type { RecordedEvent } from '../event-store/port.ts';
import { isEventName, parsePayload, type AnyEventEnvelope, type Model } from './catalogue.ts';

export function toEnvelope(event: RecordedEvent): AnyEventEnvelope | undefined {
  if (!isEventName(event.type)) return undefined;
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: event.revision,
    position: event.position,
    time: event.time,
    // Checked on the way out: only what the catalogue allows reaches the bus.
    data: parsePayload(event.type, event.data),
    metadata: { correlationId: event.metadata.correlationId, causationId: event.metadata.causationId, actor: event.metadata.actor },
    ...(event.forgotten ? { forgotten: true } : {}),
  } as AnyEventEnvelope;
}

export function modelOf(envelope: AnyEventEnvelope): Model {
  return envelope.type.split(':')[0] as Model;
}

/** The entity the event is about: the Kafka key, so that one entity's events stay in order. */
export function entityIdOf(envelope: AnyEventEnvelope): string {
  return envelope.streamId.slice(envelope.streamId.indexOf('-') + 1);
}
