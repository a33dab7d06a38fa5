// Every kind of problem the API answers, once: its status and its title. A problem document's
// `type` is `/problems/<name>`; docs/errors.md says when each is answered. The factories
// (problems.ts), the domain's refusals (platform's http/refusals.ts) and the OpenAPI document's
// answers (answers.ts) all read their statuses and titles here. Carries no schema code, so that a
// browser bundle may import it.

export const PROBLEM_TYPES = {
  validation: { status: 400, title: 'The request is not valid' },
  /** Not well-formed HTTP, answered by the server before any route: no operation declares it. */
  http: { status: 400, title: 'Request refused' },
  unauthenticated: { status: 401, title: 'Not signed in' },
  'provider-refused': { status: 401, title: 'The identity provider refused the sign-in' },
  forbidden: { status: 403, title: 'Forbidden' },
  'email-not-verified': { status: 403, title: 'Forbidden' },
  'account-deleted': { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict with the current state' },
  'account-exists': { status: 409, title: 'Conflict with the current state' },
  'invalid-transition': { status: 409, title: 'Not a step it can take now' },
  'quota-reached': { status: 409, title: 'Quota reached' },
  gone: { status: 410, title: 'Deleted' },
  'precondition-failed': { status: 412, title: 'Precondition failed' },
  'too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  unprocessable: { status: 422, title: 'The request cannot be carried out' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency-Key reused' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal error' },
  'provider-unavailable': { status: 502, title: 'The identity provider failed' },
  busy: { status: 503, title: 'Busy' },
  'not-yet-consistent': { status: 503, title: 'Not caught up yet' },
  unavailable: { status: 503, title: 'Service unavailable' },
  'store-unavailable': { status: 503, title: 'Store unavailable' },
  'event-version-unknown': { status: 503, title: 'Written by a newer release' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** The problem document's `type` member for a kind: what a client compares. */
export const problemTypeUri = (type: ProblemType | string) => `/problems/${type}`;
