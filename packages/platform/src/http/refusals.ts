// The one place where the domain's refusals become HTTP: each kind's status, problem type and
// title. problemDetails (errors.ts) answers every Refusal through it.
import type { Refusal, RefusalKind } from '@eventide/kernel/models/refusal.ts';
import { AppError, type FieldError } from '@eventide/contract/problems.ts';

const ANSWERS: Record<RefusalKind, { status: number; type: string; title: string }> = {
  'not-found': { status: 404, type: 'not-found', title: 'Not found' },
  gone: { status: 410, type: 'gone', title: 'Deleted' },
  conflict: { status: 409, type: 'conflict', title: 'Conflict with the current state' },
  'invalid-transition': { status: 409, type: 'invalid-transition', title: 'Not a step it can take now' },
  forbidden: { status: 403, type: 'forbidden', title: 'Forbidden' },
  invalid: { status: 400, type: 'validation', title: 'The request is not valid' },
  unprocessable: { status: 422, type: 'unprocessable', title: 'The request cannot be carried out' },
  unauthenticated: { status: 401, type: 'unauthenticated', title: 'Not signed in' },
  stale: { status: 412, type: 'precondition-failed', title: 'Precondition failed' },
  'key-reused': { status: 422, type: 'idempotency-key-reused', title: 'Idempotency-Key reused' },
};

/** The request headers a kind is about, named as the field at fault when the refusal names none. */
const HEADER_AT_FAULT: Partial<Record<RefusalKind, string>> = {
  stale: 'If-Match',
  'key-reused': 'Idempotency-Key',
};

export function problemOfRefusal(refusal: Refusal): AppError {
  const answer = ANSWERS[refusal.kind];
  const header = HEADER_AT_FAULT[refusal.kind];
  const errors: FieldError[] | undefined =
    refusal.fields.length > 0 ? refusal.fields : header ? [{ field: header, message: refusal.message }] : undefined;
  return new AppError(answer.status, {
    type: refusal.reason ?? answer.type,
    title: answer.title,
    detail: refusal.message,
    ...(errors ? { errors } : {}),
  });
}
