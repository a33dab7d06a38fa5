// How a public event travels as a message (Kafka): its topic, its key and its headers, each
// declared once here, for the bus that publishes (stores/event-bus/kafka.ts) and the description
// consumers read (contract/asyncapi.ts). The value is the envelope (catalogue.ts) as JSON.
import type { AnyEventEnvelope, Model } from './catalogue.ts';
import { entityIdOf } from './envelope.ts';

/** The topic of a model's events: `<prefix><model>` (KAFKA_TOPIC_PREFIX, `eventide.` by default). */
export function topicOf(prefix: string, model: Model | (string & {})): string {
  return `${prefix}${model}`;
}

/** The message key: the entity's id, so that one entity's events land on one partition, in order. */
export const keyOf = (envelope: AnyEventEnvelope): string => entityIdOf(envelope);

interface Header {
  description: string;
  /** Its value for an envelope; undefined leaves the header out. */
  of(envelope: AnyEventEnvelope): string | undefined;
  /** Absent from some messages. */
  optional?: true;
}

export const HEADERS = {
  'event-type': { description: 'The event’s name: one of the nine', of: (e) => e.type },
  'event-id': { description: 'The event’s id, unique per event: subscribers drop duplicates by it', of: (e) => e.id },
  'schema-version': {
    description: 'The version of the payload’s schema, as the envelope’s schemaVersion (docs/events.md#changing-an-event)',
    of: (e) => String(e.schemaVersion),
  },
  'correlation-id': {
    description:
      'The correlation id of the request that caused the event, as in its metadata: a consumer’s logs can carry it without parsing the value',
    of: (e) => e.metadata.correlationId,
  },
  traceparent: {
    description: 'W3C Trace Context of the publish span, when tracing is on: where Kafka instrumentations look for it',
    of: (e) => e.metadata.traceparent,
    optional: true,
  },
} as const satisfies Record<string, Header>;

export type HeaderName = keyof typeof HEADERS;

/** The headers of the message that carries `envelope`. */
export function headersOf(envelope: AnyEventEnvelope): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(HEADERS) as Array<[HeaderName, Header]>) {
    const value = header.of(envelope);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
