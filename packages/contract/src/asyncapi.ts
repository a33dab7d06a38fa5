// The AsyncAPI 3 document of the event distribution, built from the catalogue: a channel per
// Kafka topic, a message per public event with its key, headers and envelope (the payload's JSON
// Schema as zod writes it, with the personal fields as they travel: sealed), the current schema
// version of each, and an example; and the HTTP API's two event streams (asyncapi-streams.ts).
// Served at /asyncapi.json and rendered at /docs/events.
import { EVENT_NAMES, eventMetadata, MODELS, payloadSchemas, type EventName, type Model } from '@eventide/kernel/events/catalogue.ts';
import { EXAMPLES } from '@eventide/kernel/events/examples.ts';
import { HEADERS, topicOf } from '@eventide/kernel/events/on-the-wire.ts';
import { PERSONAL_FIELDS } from '@eventide/kernel/events/personal-fields.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';
import { jsonSchemaOf } from '@eventide/kernel/json-schema.ts';
import { sseParts } from './asyncapi-streams.ts';

type Json = Record<string, unknown>;

/** The prefix topics have unless KAFKA_TOPIC_PREFIX says otherwise. */
const DEFAULT_PREFIX = 'eventide.';

/** A component key: AsyncAPI allows no colon, so `product:created` is `productCreated`. */
const keyOf = (name: EventName) => name.replace(/:(\w)/, (_, first: string) => first.toUpperCase());

const SEALED: Json = {
  type: 'object',
  description:
    'A personal field as it travels: AES-256-GCM under the person’s own key (docs/events.md#personal-fields-on-the-bus-travel-sealed). The subscriber SDK opens it, given the key store; once the person is forgotten nobody can.',
  required: ['$sealed'],
  additionalProperties: false,
  properties: {
    $sealed: {
      type: 'object',
      required: ['v', 'subject', 'iv', 'data'],
      additionalProperties: false,
      properties: {
        v: { const: 1 },
        subject: { type: 'string', description: 'The person whose key seals it' },
        iv: { type: 'string', description: 'base64url' },
        data: { type: 'string', description: 'base64url of the ciphertext followed by the 16-byte tag' },
      },
    },
  },
};

/** The payload's schema with each personal field as it may travel: sealed, or null once its person was forgotten (or, in events older than sealing, in clear). */
function onTheWire(name: EventName): Json {
  const schema = structuredClone(jsonSchemaOf(payloadSchemas[name], 'output'));
  for (const path of PERSONAL_FIELDS[name] ?? []) {
    let at: Json = schema;
    for (const step of path.slice(0, -1)) at = (at.properties as Record<string, Json>)[step]!;
    const properties = at.properties as Record<string, Json>;
    const last = path[path.length - 1]!;
    properties[last] = { anyOf: [{ $ref: '#/components/schemas/Sealed' }, properties[last]!] };
  }
  return schema;
}

function envelopeOf(name: EventName): Json {
  const [model] = name.split(':') as [Model];
  return {
    type: 'object',
    required: ['id', 'type', 'schemaVersion', 'streamId', 'revision', 'position', 'time', 'data', 'metadata'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', description: 'Unique per event: subscribers drop duplicates by it' },
      type: { const: name },
      schemaVersion: { const: currentSchemaVersion(name), description: 'The version of data’s schema' },
      streamId: { type: 'string', pattern: `^${model}-`, description: '<model>-<entity id>' },
      revision: { type: 'integer', minimum: 0, description: '0-based position of the event in its stream' },
      position: { type: 'integer', minimum: 1, description: 'Position in the global log, strictly increasing in commit order' },
      time: { type: 'string', format: 'date-time', description: 'When the store recorded it' },
      data: onTheWire(name),
      metadata: { $ref: '#/components/schemas/Metadata' },
      forgotten: { const: true, description: 'Present when the person the event is about was forgotten: its personal fields are null' },
    },
  };
}

function headersSchema(name: EventName): Json {
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const [header, { description, ...rest }] of Object.entries(HEADERS)) {
    properties[header] = { type: 'string', description };
    if (!('optional' in rest)) required.push(header);
  }
  properties['event-type'] = { ...properties['event-type'], const: name };
  properties['schema-version'] = { ...properties['schema-version'], const: String(currentSchemaVersion(name)) };
  return { type: 'object', required, properties };
}

function message(name: EventName): Json {
  const version = currentSchemaVersion(name);
  const example = {
    id: '01a21dd5-61c3-74d9-b404-fdd9bf86fc9e',
    type: name,
    schemaVersion: version,
    streamId: `${name.split(':')[0]}-${Object.values(EXAMPLES[name])[0]}`,
    revision: 0,
    position: 42,
    time: '2026-11-27T12:00:00.000Z',
    data: EXAMPLES[name],
    metadata: {
      correlationId: '01a21dd5-5c6f-7590-a4bc-dc366666db00',
      causationId: '01a21dd5-5c79-7540-8ca7-bd4e0ae6df81',
      actor: { type: 'user', userId: '01a21dd5-6147-7122-88ea-884f22a18454' },
    },
  };
  return {
    name,
    title: name,
    summary: `${name}, schema version ${version}`,
    contentType: 'application/json',
    headers: headersSchema(name),
    payload: { $ref: envelopeRef(name) },
    bindings: {
      kafka: {
        key: { type: 'string', description: 'The entity’s id: one entity’s events share a partition, in order' },
        bindingVersion: '0.5.0',
      },
    },
    examples: [
      {
        name: 'example',
        headers: {
          'event-type': name,
          'event-id': example.id,
          'schema-version': String(version),
          'correlation-id': example.metadata.correlationId,
        },
        payload: example,
      },
    ],
  };
}

/** Where an event's envelope is described: the topics and GET /events carry the same. */
const envelopeKey = (name: EventName) => `${keyOf(name)[0]!.toUpperCase()}${keyOf(name).slice(1)}Envelope`;
const envelopeRef = (name: EventName) => `#/components/schemas/${envelopeKey(name)}`;

/** Every event's current version, as one string: it changes whenever one of them does. */
const catalogueVersion = () => EVENT_NAMES.map((name) => `${name} ${currentSchemaVersion(name)}`).join(', ');

export function asyncApiDocument(): Json {
  const channels: Json = {};
  const operations: Json = {};
  for (const model of MODELS) {
    const names = EVENT_NAMES.filter((name) => name.startsWith(`${model}:`));
    channels[model] = {
      address: topicOf('{prefix}', model),
      title: `${model} events`,
      description: `The ${model} events, keyed by the ${model}’s id. Topic ${topicOf(DEFAULT_PREFIX, model)} with the default prefix.`,
      parameters: { prefix: { default: DEFAULT_PREFIX, description: 'KAFKA_TOPIC_PREFIX', examples: [DEFAULT_PREFIX] } },
      servers: [{ $ref: '#/servers/kafka' }],
      messages: Object.fromEntries(names.map((name) => [keyOf(name), { $ref: `#/components/messages/${keyOf(name)}` }])),
    };
    operations[`publish${model[0]!.toUpperCase()}${model.slice(1)}Events`] = {
      action: 'send',
      title: `Publish the ${model} events`,
      summary: `The projector’s publisher puts each ${model} event on this topic, at least once, in order per ${model}.`,
      channel: { $ref: `#/channels/${model}` },
      messages: names.map((name) => ({ $ref: `#/channels/${model}/messages/${keyOf(name)}` })),
    };
  }
  const metadata = jsonSchemaOf(eventMetadata, 'output');
  const streams = sseParts(envelopeRef);
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Eventide events',
      version: catalogueVersion(),
      description: [
        'The public events of the service, as the projector publishes them to Kafka (KAFKA_BROKERS): one topic per model, the entity id as key, the envelope as JSON.',
        'Delivery is at least once: drop duplicates by the event id. Each event’s schema version is in the envelope and the `schema-version` header; how versions change: docs/events.md#changing-an-event.',
        'Without Kafka, GET /events streams the same envelopes as server-sent events; GET /changes streams the read models as they change. Both are described here too, on the `site` server: each SSE message’s `event:` and `id:` fields are its headers, its `data:` the payload.',
      ].join('\n\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: {
        host: '{broker}',
        protocol: 'kafka',
        description: 'The brokers of KAFKA_BROKERS',
        variables: { broker: { default: 'localhost:9092', description: 'One of KAFKA_BROKERS' } },
      },
      site: streams.server,
    },
    channels: { ...channels, ...streams.channels },
    operations: { ...operations, ...streams.operations },
    components: {
      messages: { ...Object.fromEntries(EVENT_NAMES.map((name) => [keyOf(name), message(name)])), ...streams.messages },
      schemas: {
        Metadata: metadata,
        Sealed: SEALED,
        ...Object.fromEntries(EVENT_NAMES.map((name) => [envelopeKey(name), envelopeOf(name)])),
      },
    },
  };
}
