// Checks a message as it travelled against the AsyncAPI document: one off a Kafka topic (topic,
// headers, value: the channel of its topic, the message of its event type there, and that
// message's headers and payload schemas), or one of the HTTP API's server-sent event streams (its
// `event:`, `id:` and `data:`), with JSON Schema 2020-12 by ajv. For the tests that hold the
// document to what kcat reads off the topics, to what the streams send, and to its own examples.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { asyncApiDocument } from '@eventide/contract/asyncapi.ts';

type Json = Record<string, unknown>;

export interface TravelledMessage {
  topic: string;
  headers: Record<string, string>;
  /** The value, parsed. */
  payload: unknown;
}

/** Resolves the document's `$ref`s to components (the only kind it has) and compiles each message's schemas once. */
export function asyncApiChecker(prefix: string) {
  const document = asyncApiDocument() as {
    channels: Record<string, { address: string; parameters?: Json; messages: Record<string, { $ref: string }> }>;
    components: {
      messages: Record<string, { name: string; headers: Json; payload: Json; examples?: Array<{ headers: Json; payload: Json }> }>;
      schemas: Json;
    };
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  // The payloads refer to #/components/schemas/…: give ajv the document's schemas under that id.
  ajv.addSchema({ $id: 'asyncapi', components: { schemas: document.components.schemas } });
  const withBase = (schema: Json) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"asyncapi#/components/')) as Json;
  const lookup = new Map<string, { name: string; headers: ReturnType<Ajv2020['compile']>; payload: ReturnType<Ajv2020['compile']> }>();
  for (const channel of Object.values(document.channels)) {
    const topic = channel.address.replace('{prefix}', prefix);
    for (const { $ref } of Object.values(channel.messages)) {
      const message = document.components.messages[$ref.split('/').pop()!]!;
      lookup.set(`${topic} ${message.name}`, {
        name: message.name,
        headers: ajv.compile(withBase(message.headers)),
        payload: ajv.compile(withBase(message.payload)),
      });
    }
  }
  return {
    examples: Object.entries(document.channels).flatMap(([, channel]) =>
      Object.values(channel.messages).flatMap(({ $ref }) => {
        const message = document.components.messages[$ref.split('/').pop()!]!;
        const example = message.examples?.[0];
        if (!example) return [];
        return {
          topic: channel.address.replace('{prefix}', prefix),
          headers: example.headers as Record<string, string>,
          payload: example.payload,
        };
      }),
    ),
    /** What the document says is wrong with an SSE message of a stream (`/changes`): nothing when it matches. */
    streamProblemsOf(stream: string, message: { event: string; id: string; data: string }): string[] {
      const described = lookup.get(`${stream} ${message.event}`);
      if (!described) return [`the document describes no ${message.event} message on ${stream}`];
      const problems: string[] = [];
      if (!described.headers({ event: message.event, id: message.id }))
        problems.push(`${message.event} fields: ${ajvErrors(described.headers.errors)}`);
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return [...problems, `${message.event} data: not JSON`];
      }
      if (!described.payload(data)) problems.push(`${message.event} data: ${ajvErrors(described.payload.errors)}`);
      return problems;
    },
    /** What the document says is wrong with this message: nothing when it matches. */
    problemsOf(message: TravelledMessage): string[] {
      const type = message.headers['event-type'];
      const described = lookup.get(`${message.topic} ${type}`);
      if (!described) return [`the document describes no ${type} message on ${message.topic}`];
      const problems: string[] = [];
      if (!described.headers(message.headers)) problems.push(`${type} headers: ${ajvErrors(described.headers.errors)}`);
      if (!described.payload(message.payload)) problems.push(`${type} payload: ${ajvErrors(described.payload.errors)}`);
      return problems;
    },
  };
}

function ajvErrors(errors: Array<{ instancePath: string; message?: string }> | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim()).join('; ');
}
