// Every answer a route can give that is not in its shape: its refusals, by status, each with the
// problem types it may carry, and the response headers a client may read on each answer. Most
// follow from the route's entry in the table, as the mount (platform's http/mount.ts) enforces
// it: who may call, the path's parameters, the query, the body, the request headers and the
// limits; the rest are the operation's own (`refuses`). The OpenAPI document declares exactly
// these, and the conformance test fails on any status, problem type or header it meets that is
// not declared here.
import { readCostOf } from './limits.ts';
import { PROBLEM_TYPES, type ProblemType } from './problem-types.ts';
import type { ApiRoute } from './routes.ts';
import type { ServiceName } from './operation.ts';
import type { ResponseHeader } from './shape.ts';

/** What each response header a client may act on says (shape.ts names them). */
export const RESPONSE_HEADERS: Record<ResponseHeader, string> = {
  ETag: "The entity's version, quoted (or a file's validator): send it back in If-Match, or If-None-Match for a file",
  Location: 'Where what was made is read',
  'Event-Position': 'The position of the write in the log: send it in Wait-For-Position to read your write',
  'Read-Position': 'The position of the log the read models had reached when this was read',
  'Retry-After': 'Seconds to wait before asking again',
  Deprecation: 'RFC 9745: since when this version is deprecated (an @-prefixed Unix time)',
  Sunset: 'RFC 8594: when this version stops being served',
  Link: 'The successor of this path (rel="successor-version") and the deprecation notice (rel="deprecation")',
  'RateLimit-Policy': "This limit's budget and window: `points;w=seconds`",
  'RateLimit-Limit': "This limit's budget per window",
  'RateLimit-Remaining': 'What is left of it',
  'RateLimit-Reset': 'Seconds until it is whole again',
};

/** The services whose handlers read or write the log and the read models: a store may be out of reach. */
const ON_STORES: readonly ServiceName[] = ['command', 'query', 'collab', 'export'];

/** The refusals and failures a route can answer, by status, and the problem types each may carry. */
export function refusalsOf(route: ApiRoute): Map<number, ProblemType[]> {
  const { spec, shape } = route;
  const headers = new Set(spec.headers ?? []);
  // Any route: a defect, and, through the front door, no process of the site answering (infra/front-door/nginx.ts).
  const types = new Set<ProblemType>(['internal', 'unavailable']);
  const add = (...more: ProblemType[]) => {
    for (const type of more) types.add(type);
  };
  if (ON_STORES.includes(spec.service)) add('store-unavailable', 'event-version-unknown');
  // Who may call (mount.ts, admit): a session first, then a role; another's entity is absent.
  if (!['public', 'signed-out'].includes(spec.access)) add('unauthenticated');
  if (['admin', 'owner', 'signed-out'].includes(spec.access)) add('forbidden');
  // A request that changes state from another site's page is refused (auth/origin.ts).
  if (spec.method !== 'get') add('forbidden');
  if (shape.params || spec.access === 'self') add('not-found');
  if (shape.query || shape.body || shape.upload || headers.size > 0) add('validation');
  if (shape.body || shape.upload) add('too-large', 'unsupported-media-type');
  if (headers.has('If-Match')) add('precondition-failed');
  if (headers.has('Idempotency-Key')) add('idempotency-key-reused');
  if (headers.has('Wait-For-Position')) add('not-yet-consistent');
  if (spec.limit || spec.limitSpent || readCostOf(spec) !== undefined) add('rate-limited');
  add(...(spec.refuses ?? []));
  const byStatus = new Map<number, ProblemType[]>();
  for (const type of types) {
    const { status } = PROBLEM_TYPES[type];
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The headers a client may read on an answer of `status`: the shape's own for a success, and what the mount and the limits add. */
export function headersOf(route: ApiRoute, status: number): ResponseHeader[] {
  const { spec, shape } = route;
  const answer = shape.answers[status];
  const headers = new Set<ResponseHeader>(answer?.headers ?? []);
  // A write that answers with the entity says its version and its place in the log (command-service's respond.ts).
  if (answer?.body && spec.method !== 'get') headers.add('ETag').add('Event-Position');
  if (status === 201) headers.add('Location');
  if (route.deprecated) for (const header of ['Deprecation', 'Sunset', 'Link'] as const) headers.add(header);
  // Where the read models were, on whatever the read answers once it has waited for them (query-service's consistency.ts).
  if (spec.headers?.includes('Wait-For-Position')) headers.add('Read-Position');
  // Every answer of a route that spends a limit over time says what is left of it (auth/rate-limit.ts).
  if (spec.limit || spec.refuses?.includes('rate-limited')) {
    for (const header of ['RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const) headers.add(header);
  }
  if (status === 429 || status === 503) headers.add('Retry-After');
  return [...headers];
}
