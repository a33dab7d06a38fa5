// Why the domain refuses a command, in its own words. Deciders, life cycles and use cases throw
// these; they never name an HTTP status. The HTTP edge turns each kind into a problem document
// once (http/refusals.ts), and specs assert the kind.

export type RefusalKind =
  /** No such entity, or none the actor may know of (someone else's reads as absent). */
  | 'not-found'
  /** The entity existed and was deleted. */
  | 'gone'
  /** The current state does not allow it: a taken address, an entity that exists already, a concurrent change. */
  | 'conflict'
  /** The entity's life cycle has no such step from its current state. */
  | 'invalid-transition'
  /** The step exists, but this actor may not take it. */
  | 'forbidden'
  /** The command lacks something the state asks for (the current password, to change it): `fields` say what. */
  | 'invalid'
  /** The command names something unusable (an unknown product, a second currency): `fields` say where. */
  | 'unprocessable'
  /** The credentials do not prove who the caller says they are. */
  | 'unauthenticated'
  /** The caller expected a version of the entity that is not the current one. */
  | 'stale'
  /** A command's key was used before for a different command. */
  | 'key-reused';

export interface RefusedField {
  /** Where in the command: `lines.0.productId`, `status`, `email`. */
  field: string;
  message: string;
}

export class Refusal extends Error {
  readonly kind: RefusalKind;
  readonly fields: RefusedField[];
  /** A narrower name than the kind, for clients that act on it (`account-exists`); documented in docs/errors.md. */
  readonly reason: string | undefined;
  constructor(kind: RefusalKind, detail: string, options: { fields?: RefusedField[]; reason?: string } = {}) {
    super(detail);
    this.name = 'Refusal';
    this.kind = kind;
    this.fields = options.fields ?? [];
    this.reason = options.reason;
  }
}

export const isRefusal = (error: unknown, kind?: RefusalKind): error is Refusal =>
  error instanceof Refusal && (kind === undefined || error.kind === kind);

const at = (field: string, message: string): RefusedField[] => [{ field, message }];

export const refuse = {
  notFound: (what: string) => new Refusal('not-found', `${what} does not exist`),
  gone: (what: string) => new Refusal('gone', `${what} has been deleted`),
  conflict: (detail: string, options?: { fields?: RefusedField[]; reason?: string }) => new Refusal('conflict', detail, options),
  invalidTransition: (detail: string, field: string) => new Refusal('invalid-transition', detail, { fields: at(field, detail) }),
  forbidden: (detail: string, options?: { fields?: RefusedField[]; reason?: string }) => new Refusal('forbidden', detail, options),
  invalid: (field: string, message: string) => new Refusal('invalid', `${field}: ${message}`, { fields: at(field, message) }),
  unprocessable: (field: string, message: string) => new Refusal('unprocessable', `${field}: ${message}`, { fields: at(field, message) }),
  unauthenticated: (detail: string) => new Refusal('unauthenticated', detail),
  stale: (detail: string) => new Refusal('stale', detail),
  keyReused: (detail: string) => new Refusal('key-reused', detail),
};

/** The state of an entity that exists and is not deleted; refuses as not found or gone otherwise. */
export function requireLive<State extends { status: string }>(
  state: State,
  what: string,
): Exclude<State, { status: 'absent' | 'deleted' }> {
  if (state.status === 'absent') throw refuse.notFound(what);
  if (state.status === 'deleted') throw refuse.gone(what);
  return state as Exclude<State, { status: 'absent' | 'deleted' }>;
}
