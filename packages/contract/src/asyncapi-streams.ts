// The server-sent event streams of the HTTP API, as AsyncAPI 3 describes them beside the Kafka
// topics (asyncapi.ts): GET /events (the public events, for services without Kafka) and GET
// /changes (the read models as they change). Each SSE message is a message here: its `event:` and
// `id:` fields are the message's headers, its `data:` the payload. OpenAPI 3.1 has no way to say
// what a stream carries, so /openapi.json points here.
import { EVENT_NAMES, type EventName } from '@eventide/kernel/events/catalogue.ts';
import { jsonSchemaOf } from '@eventide/kernel/json-schema.ts';
import { CHANGE_MESSAGES } from './resources/live/changes.ts';

type Json = Record<string, unknown>;

/** An SSE message's fields besides `data`: `event` names it, `id` is where to resume after (Last-Event-ID). */
const sseFields = (event: string, id: string): Json => ({
  type: 'object',
  required: ['event', 'id'],
  properties: {
    event: { const: event, description: 'The SSE `event:` field' },
    id: { type: 'string', pattern: '^[0-9]+$', description: id },
  },
});

const WHAT_CHANGES_SAY: Record<keyof typeof CHANGE_MESSAGES, string> = {
  ready: 'Caught up: what changed since the position asked for has been sent; each change follows as it happens',
  changed: 'An entity was created or changed: `body` is what its read route answers now',
  deleted: 'An entity was deleted',
  reset: 'The stream cannot say what changed since the position asked for: reload what is shown; it goes on from now',
  ended: 'The server ended the stream, and it should not be reopened as it was (the session ended)',
};

/** A component key of an SSE message: `productCreated` is the Kafka message's, so these are prefixed. */
export const streamMessageKey = (stream: 'events' | 'changes', name: string) =>
  `${stream}${name.replace(/(^|:)(\w)/g, (_, _sep: string, first: string) => first.toUpperCase())}`;

/** The channels, operations and messages of the two streams, to merge into the AsyncAPI document. */
export function sseParts(envelopeRef: (name: EventName) => string) {
  const eventMessages = Object.fromEntries(
    EVENT_NAMES.map((name) => [
      streamMessageKey('events', name),
      {
        name,
        title: `${name} on GET /events`,
        summary: `A ${name} event was written`,
        contentType: 'application/json',
        headers: sseFields(name, 'The event’s position in the log'),
        payload: { $ref: envelopeRef(name) },
      },
    ]),
  );
  const changeMessages = Object.fromEntries(
    Object.entries(CHANGE_MESSAGES).map(([name, schema]) => [
      streamMessageKey('changes', name),
      {
        name,
        title: `${name} on GET /changes`,
        summary: WHAT_CHANGES_SAY[name as keyof typeof CHANGE_MESSAGES],
        contentType: 'application/json',
        headers: sseFields(name, 'A position to resume after'),
        payload: jsonSchemaOf(schema, 'output'),
      },
    ]),
  );
  const refs = (messages: Json) => Object.fromEntries(Object.keys(messages).map((key) => [key, { $ref: `#/components/messages/${key}` }]));
  return {
    server: {
      host: '{origin}',
      protocol: 'https',
      description: 'The site itself: these streams are GET requests answered with text/event-stream (see /openapi.json)',
      variables: { origin: { default: 'localhost:3000', description: 'The host the site is served at' } },
    },
    channels: {
      eventStream: {
        address: '/events',
        title: 'GET /events',
        description: 'The public events, for admins and services without Kafka: the same envelopes as the topics, in log order.',
        servers: [{ $ref: '#/servers/site' }],
        messages: refs(eventMessages),
      },
      changeStream: {
        address: '/changes',
        title: 'GET /changes',
        description: 'The read models as they change, filtered by who may read what (docs/api.md#live).',
        servers: [{ $ref: '#/servers/site' }],
        messages: refs(changeMessages),
      },
    },
    operations: {
      streamEvents: {
        action: 'send',
        title: 'Stream the public events',
        channel: { $ref: '#/channels/eventStream' },
        messages: Object.keys(eventMessages).map((key) => ({ $ref: `#/channels/eventStream/messages/${key}` })),
      },
      streamChanges: {
        action: 'send',
        title: 'Stream the changes to the read models',
        channel: { $ref: '#/channels/changeStream' },
        messages: Object.keys(changeMessages).map((key) => ({ $ref: `#/channels/changeStream/messages/${key}` })),
      },
    },
    messages: { ...eventMessages, ...changeMessages },
  };
}
