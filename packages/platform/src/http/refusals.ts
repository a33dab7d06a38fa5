// The one place where the domain's refusals become HTTP: each kind's problem type (whose status
// and title are problem-types.ts's). problemDetails (errors.ts) answers every Refusal through it.
import type { Refusal, RefusalKind } from '@eventide/kernel/models/refusal.ts';
import { type AppError, type FieldError, problemOf } from '@eventide/contract/problems.ts';
import { PROBLEM_TYPES, type ProblemType } from '@eventide/contract/problem-types.ts';

/** The kind of problem each kind of refusal is, unless the refusal names a narrower one (its reason). */
const TYPES: Record<RefusalKind, ProblemType> = {
  'not-found': 'not-found',
  gone: 'gone',
  conflict: 'conflict',
  'invalid-transition': 'invalid-transition',
  forbidden: 'forbidden',
  invalid: 'validation',
  unprocessable: 'unprocessable',
  unauthenticated: 'unauthenticated',
  stale: 'precondition-failed',
  'key-reused': 'idempotency-key-reused',
};

/** The request headers a kind is about, named as the field at fault when the refusal names none. */
const HEADER_AT_FAULT: Partial<Record<RefusalKind, string>> = {
  stale: 'If-Match',
  'key-reused': 'Idempotency-Key',
};

export function problemOfRefusal(refusal: Refusal): AppError {
  // A reason problem-types.ts does not have would be answered with a status nobody declared: the kind's is.
  const type = refusal.reason !== undefined && refusal.reason in PROBLEM_TYPES ? (refusal.reason as ProblemType) : TYPES[refusal.kind];
  const header = HEADER_AT_FAULT[refusal.kind];
  const errors: FieldError[] | undefined =
    refusal.fields.length > 0 ? refusal.fields : header ? [{ field: header, message: refusal.message }] : undefined;
  return problemOf(type, refusal.message, errors ? { errors } : {});
}
