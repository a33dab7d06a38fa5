// Checks a message as it travelled (topic, headers, value) against the AsyncAPI document: the
// channel of its topic, the message of its event type there, and that message's headers and
// payload schemas (JSON Schema 2020-12, by ajv). For the tests that hold the document to what
// kcat reads off the topics, and to its own examples.
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
    channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
    components: {
      messages: Record<string, { name: string; headers: Json; payload: Json; examples: Array<{ headers: Json; payload: Json }> }>;
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
      Object.values(channel.messages).map(({ $ref }) => {
        const message = document.components.messages[$ref.split('/').pop()!]!;
        const example = message.examples[0]!;
        return {
          topic: channel.address.replace('{prefix}', prefix),
          headers: example.headers as Record<string, string>,
          payload: example.payload,
        };
      }),
    ),
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
