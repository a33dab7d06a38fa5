// What the client throws for any answer that is not a success: the server's problem document
// (RFC 9457, docs/errors.md), typed, with the field errors and how long to wait when limited.
import type { FieldError } from '@eventide/contract/problems.ts';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

export class ApiProblem extends Error implements ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance: string | undefined;
  readonly errors: FieldError[];
  /** From Retry-After on a 429 or 503: when asking again may succeed. */
  readonly retryAfterMs: number | undefined;

  constructor(problem: ProblemDocument, retryAfterMs?: number) {
    super(problem.detail || problem.title);
    this.name = 'ApiProblem';
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.errors = problem.errors ?? [];
    this.retryAfterMs = retryAfterMs;
  }

  /** The message for one field (a body path such as `lines.0.quantity`, or a header), if any. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.message;
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
