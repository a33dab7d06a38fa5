// The OpenAPI 3.1 document of the whole API, built from the route table (operations.ts, routes.ts) and its zod
// schemas with zod's own JSON Schema output (3.1's schemas are JSON Schema 2020-12). Served at
// /openapi.json and rendered at /docs.
import { jsonSchemaOf } from '@eventide/kernel/json-schema.ts';
import { SESSION_COOKIE } from './resources/auth/schemas.ts';
import { V1_DEPRECATED_AT, V1_SUNSET_AT } from './versions.ts';
import { problem } from './common.ts';
import { headersOf, RESPONSE_HEADERS, refusalsOf } from './answers.ts';
import { PROBLEM_TYPES, type ProblemType, problemTypeUri } from './problem-types.ts';
import type { ResponseHeader, Upload } from './shape.ts';
import type { RequestHeader } from './operations.ts';
import { API_ROUTES, answerBody, type ApiRoute } from './routes.ts';

type Json = Record<string, unknown>;

const HEADERS: Record<RequestHeader, Json> = {
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    description: 'The ETag last read: the write is refused with 412 if the entity has changed since',
    schema: { type: 'string', examples: ['"3"'] },
  },
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'A key of your choosing: the same request sent again with it is answered as the first time, and acts once',
    schema: { type: 'string', maxLength: 200 },
  },
  'Wait-For-Position': {
    name: 'Wait-For-Position',
    in: 'header',
    description: 'An Event-Position a write answered: the read waits (up to 5 s) until the read models include it',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'Last-Event-ID': {
    name: 'Last-Event-ID',
    in: 'header',
    description: 'Resume the stream right after this position',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

/** A response's headers, as OpenAPI declares them. */
const headersObject = (headers: ResponseHeader[]) =>
  Object.fromEntries(headers.map((name) => [name, { description: RESPONSE_HEADERS[name], schema: { type: 'string' } }]));

/** A refusal: a problem document whose `type` is one of those this status may carry here. */
function refusal(route: ApiRoute, status: number, types: ProblemType[]): Json {
  const headers = headersOf(route, status);
  return {
    description: types.map((type) => `${problemTypeUri(type)}: ${PROBLEM_TYPES[type].title}`).join('; '),
    ...(headers.length > 0 ? { headers: headersObject(headers) } : {}),
    content: {
      'application/problem+json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { type: { enum: types.map(problemTypeUri) } } }],
        },
      },
    },
  };
}

function parametersOf(route: ApiRoute): Json[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const query: Json[] = [];
  if (route.shape.query) {
    const schema = jsonSchemaOf(route.shape.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      query.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
  }
  return [...path, ...query, ...(route.spec.headers ?? []).map((h) => HEADERS[h])];
}

/** A body of bytes: each media type taken, as binary content (OpenAPI 3.1 says it with contentMediaType). */
function uploadBody(upload: Upload): Json {
  return {
    required: true,
    description: `${upload.description} At most ${upload.maxBytes} bytes.`,
    content: Object.fromEntries(upload.mediaTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  };
}

function operationOf(route: ApiRoute): Json {
  const responses: Json = {};
  for (const [status, answer] of Object.entries(route.shape.answers)) {
    const contentType = answer.contentType ?? 'application/json';
    const body = answerBody(route, answer);
    const headers = headersOf(route, Number(status));
    responses[status] = {
      description: answer.description,
      ...(body || answer.contentType ? { content: { [contentType]: body ? { schema: jsonSchemaOf(body, 'output') } : {} } } : {}),
      ...(headers.length > 0 ? { headers: headersObject(headers) } : {}),
    };
  }
  for (const [status, types] of refusalsOf(route)) responses[status] ??= refusal(route, status, types);
  return {
    operationId: route.operationId,
    summary: route.spec.summary,
    tags: [route.spec.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: route.spec.access === 'public' || route.spec.access === 'signed-out' ? [{}, { session: [] }] : [{ session: [] }],
    'x-access': route.spec.access,
    ...(route.spec.limit ? { 'x-rate-limit': route.spec.limit } : {}),
    parameters: parametersOf(route),
    ...(route.shape.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.shape.body, 'input') } } } }
      : {}),
    ...(route.shape.upload ? { requestBody: uploadBody(route.shape.upload) } : {}),
    responses,
  };
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const route of API_ROUTES) paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Eventide API',
      version: '2',
      description: [
        'Users, products and orders, written as events and read from projections; collaborative documents.',
        'Every refusal is an `application/problem+json` document naming the field at fault.',
        'The events this API writes, as they reach Kafka: [/docs/events](/docs/events), and as AsyncAPI 3: [/asyncapi.json](/asyncapi.json).',
        `Version 1 (\`/v1\`) is deprecated since ${V1_DEPRECATED_AT.toISOString().slice(0, 10)} and ends on ${V1_SUNSET_AT.toISOString().slice(0, 10)}: see [versioning](/docs/versioning).`,
      ].join('\n\n'),
    },
    // Relative: the origin that serves this document serves the API (one site, docs/operations.md).
    servers: [{ url: '/', description: 'this site' }],
    tags: [
      { name: 'users', description: 'Profiles; sign-up is POST /users' },
      { name: 'products', description: 'The catalogue, and search' },
      { name: 'orders', description: 'Orders and their life cycle' },
      { name: 'auth', description: 'Sessions: password and provider sign-in' },
      { name: 'events', description: 'The public events, for services without Kafka' },
      { name: 'live', description: 'The read models as they change, as server-sent events, filtered by who may read what' },
      { name: 'documents', description: 'Collaborative documents (the editing itself is ShareDB over /collab, a WebSocket)' },
      { name: 'docs', description: 'This description' },
      { name: 'app', description: 'The web app served at /' },
      { name: 'health', description: 'Liveness, readiness and what the process runs' },
      { name: 'webhooks', description: 'Signed deliveries of the public events to endpoints admins register (Standard Webhooks)' },
      {
        name: 'operations',
        description: "The operator's console: the followers of the log, what they parked, and the log itself (admins)",
      },
    ],
    paths,
    components: {
      schemas: { Problem: jsonSchemaOf(problem, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by a sign-in; httpOnly' },
      },
    },
  };
}
