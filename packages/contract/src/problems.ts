// The one error base class: an HTTP-like status and an RFC 9457 problem body. Below 500 the
// message is the client's to read; 5xx are answered without internals.
import { PROBLEM_TYPES, type ProblemType } from './problem-types.ts';

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

/** A problem of a kind of problem-types.ts: its status and title are the kind's. */
export const problemOf = (type: ProblemType, detail: string, options: Omit<ProblemOptions, 'type' | 'title' | 'detail'> = {}) =>
  new AppError(PROBLEM_TYPES[type].status, { type, title: PROBLEM_TYPES[type].title, detail, ...options });

export const problems = {
  invalid: (errors: FieldError[], detail?: string) =>
    problemOf('validation', detail ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors }),
  invalidField: (name: string, message: string) => problems.invalid(field(name, message)),
  unprocessable: (name: string, message: string) => problemOf('unprocessable', `${name}: ${message}`, { errors: field(name, message) }),
  notFound: (what: string) => problemOf('not-found', `${what} does not exist`),
  gone: (what: string) => problemOf('gone', `${what} has been deleted`),
  conflict: (detail: string, errors?: FieldError[]) => problemOf('conflict', detail, errors ? { errors } : {}),
  preconditionFailed: (detail: string) => problemOf('precondition-failed', detail, { errors: field('If-Match', detail) }),
  unsupportedMediaType: (message: string) =>
    problemOf('unsupported-media-type', `Content-Type: ${message}`, {
      errors: field('Content-Type', message),
      headers: { 'Accept-Patch': 'application/json', 'Accept-Post': 'application/json' },
    }),
  tooLarge: (limit: number) =>
    problemOf('too-large', `(body): larger than the limit of ${limit} bytes`, { errors: field('(body)', `larger than ${limit} bytes`) }),
  unauthenticated: (detail = 'sign in first: this request needs a session') => problemOf('unauthenticated', detail),
  /** A quota of what one person may keep is used up: the request may pass once they let something go. */
  quotaReached: (detail: string) => problemOf('quota-reached', detail),
  forbidden: (detail: string) => problemOf('forbidden', detail),
  tooManyRequests: (detail: string, headers: Record<string, string>) => problemOf('rate-limited', detail, { headers }),
  /** Overloaded for now, for everyone: a moment later will do. */
  busy: (detail: string) => problemOf('busy', detail, { headers: { 'Retry-After': '1' } }),
  storeUnavailable: (store: string) =>
    problemOf(
      'store-unavailable',
      `the ${store} cannot be reached just now; nothing of this request was done unless its answer said so: try again shortly`,
      { headers: { 'Retry-After': '5' } },
    ),
  /**
   * What was asked for includes an event a newer release wrote: this one cannot read it until it is
   * upgraded too (a rolling upgrade under way). Not the client's fault, and not for long.
   */
  eventVersionUnknown: (detail: string) => problemOf('event-version-unknown', detail, { headers: { 'Retry-After': '30' } }),
  idempotencyKeyReused: () =>
    problemOf('idempotency-key-reused', 'this Idempotency-Key was already used for a different request; use a new key for a new request', {
      errors: field('Idempotency-Key', 'already used for a different request'),
    }),
};
