// The one error base class: an HTTP-like status and an RFC 9457 problem body. Below 500 the
// message is the client's to read; 5xx are answered without internals.

export interface FieldError {
  /** Where in the input: a body path such as `lines.0.quantity`, a header, or a query parameter. */
  field: string;
  message: string;
}

export interface ProblemOptions {
  /** A short slug naming the kind of problem; documented in docs/errors.md. */
  type: string;
  title: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, options: ProblemOptions) {
    super(options.detail);
    this.name = 'AppError';
    this.status = status;
    this.type = options.type;
    this.title = options.title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

const field = (name: string, message: string): FieldError[] => [{ field: name, message }];

export const problems = {
  invalid: (errors: FieldError[], detail?: string) =>
    new AppError(400, {
      type: 'validation',
      title: 'The request is not valid',
      detail: detail ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    }),
  invalidField: (name: string, message: string) => problems.invalid(field(name, message)),
  unprocessable: (name: string, message: string) =>
    new AppError(422, {
      type: 'unprocessable',
      title: 'The request cannot be carried out',
      detail: `${name}: ${message}`,
      errors: field(name, message),
    }),
  notFound: (what: string) => new AppError(404, { type: 'not-found', title: 'Not found', detail: `${what} does not exist` }),
  gone: (what: string) => new AppError(410, { type: 'gone', title: 'Deleted', detail: `${what} has been deleted` }),
  conflict: (detail: string, errors?: FieldError[]) =>
    new AppError(409, { type: 'conflict', title: 'Conflict with the current state', detail, ...(errors ? { errors } : {}) }),
  preconditionFailed: (detail: string) =>
    new AppError(412, { type: 'precondition-failed', title: 'Precondition failed', detail, errors: field('If-Match', detail) }),
  unsupportedMediaType: (message: string) =>
    new AppError(415, {
      type: 'unsupported-media-type',
      title: 'Unsupported media type',
      detail: `Content-Type: ${message}`,
      errors: field('Content-Type', message),
      headers: { 'Accept-Patch': 'application/json', 'Accept-Post': 'application/json' },
    }),
  tooLarge: (limit: number) =>
    new AppError(413, {
      type: 'too-large',
      title: 'Request body too large',
      detail: `(body): larger than the limit of ${limit} bytes`,
      errors: field('(body)', `larger than ${limit} bytes`),
    }),
  unauthenticated: (detail = 'sign in first: this request needs a session') =>
    new AppError(401, { type: 'unauthenticated', title: 'Not signed in', detail }),
  /** A quota of what one person may keep is used up: the request may pass once they let something go. */
  quotaReached: (detail: string) => new AppError(409, { type: 'quota-reached', title: 'Quota reached', detail }),
  forbidden: (detail: string) => new AppError(403, { type: 'forbidden', title: 'Forbidden', detail }),
  tooManyRequests: (detail: string, headers: Record<string, string>) =>
    new AppError(429, { type: 'rate-limited', title: 'Too many requests', detail, headers }),
  /** Overloaded for now, for everyone: a moment later will do. */
  busy: (detail: string) => new AppError(503, { type: 'busy', title: 'Busy', detail, headers: { 'Retry-After': '1' } }),
  /**
   * What was asked for includes an event a newer release wrote: this one cannot read it until it is
   * upgraded too (a rolling upgrade under way). Not the client's fault, and not for long.
   */
  storeUnavailable: (store: string) =>
    new AppError(503, {
      type: 'store-unavailable',
      title: 'Store unavailable',
      detail: `the ${store} cannot be reached just now; nothing of this request was done unless its answer said so: try again shortly`,
      headers: { 'Retry-After': '5' },
    }),
  eventVersionUnknown: (detail: string) =>
    new AppError(503, { type: 'event-version-unknown', title: 'Written by a newer release', detail, headers: { 'Retry-After': '30' } }),
  idempotencyKeyReused: () =>
    new AppError(422, {
      type: 'idempotency-key-reused',
      title: 'Idempotency-Key reused',
      detail: 'this Idempotency-Key was already used for a different request; use a new key for a new request',
      errors: field('Idempotency-Key', 'already used for a different request'),
    }),
};
