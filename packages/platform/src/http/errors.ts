// The outermost middleware: every error becomes an application/problem+json answer, the
// domain's refusals among them (refusals.ts).
import type { Context, Middleware } from 'koa';
import { Refusal } from '@eventide/kernel/models/refusal.ts';
import { AppError, problemOf, problems } from '@eventide/contract/problems.ts';
import { PROBLEM_TYPES, problemTypeUri } from '@eventide/contract/problem-types.ts';
import { NewerEventVersionError } from '@eventide/kernel/events/versions.ts';
import { problemOfRefusal } from './refusals.ts';
import { StoreUnavailableError } from '@eventide/stores/unavailable.ts';
import { requestLogger } from './request-context.ts';
import type { Logger } from '@eventide/kernel/log.ts';

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  correlationId?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** Errors thrown by Koa, the router or body readers (http-errors) carry a status and `expose`. */
function isHttpError(error: unknown): error is Error & { status: number; expose?: boolean; headers?: Record<string, string> } {
  return error instanceof Error && typeof (error as { status?: unknown }).status === 'number';
}

const TITLES: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
};

export function problemDetails(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) {
        throw problemOf('not-found', `no resource at ${ctx.path}`);
      }
      // The router answers 501 to a method none of its routes has (PROPFIND, PURGE, ...): that
      // is the client's mistake like any other unsupported method, not a fault of ours.
      if (ctx.body == null && (ctx.status === 405 || ctx.status === 501)) {
        const allowed = ctx.response.get('Allow');
        if (!allowed) throw problemOf('not-found', `no resource at ${ctx.path}`);
        throw problemOf('method-not-allowed', `${ctx.method} is not supported on ${ctx.path}; use ${allowed}`, {
          headers: { Allow: allowed },
        });
      }
    } catch (error) {
      respond(ctx, error, requestLogger(ctx) ?? log);
    }
  };
}

/** What an error the domain or the stores name is as a problem; anything else stays as it is. */
function asProblem(thrown: unknown, log: Logger): unknown {
  if (thrown instanceof Refusal) return problemOfRefusal(thrown);
  if (thrown instanceof NewerEventVersionError) {
    // An operator must hear of it: this release is older than one that writes to the same log.
    log.warn({ err: thrown }, 'a request met an event written by a newer release');
    return problems.eventVersionUnknown(
      `what this asks for includes a ${thrown.eventType} event of version ${thrown.version}, newer than this release reads (${thrown.known}): the service is being upgraded; try again shortly`,
    );
  }
  if (thrown instanceof StoreUnavailableError) {
    log.warn({ err: thrown }, 'a request met a store that cannot be reached');
    return problems.storeUnavailable(thrown.store);
  }
  return thrown;
}

function respond(ctx: Context, thrown: unknown, log: Logger): void {
  const error = asProblem(thrown, log);
  const correlationId = ctx.state.correlationId as string | undefined;
  let body: ProblemBody;
  let headers: Record<string, string> = {};
  if (error instanceof AppError) {
    body = { type: problemTypeUri(error.type), title: error.title, status: error.status, detail: error.message, instance: ctx.path };
    if (error.errors) body.errors = error.errors;
    headers = error.headers;
  } else if (isHttpError(error) && error.status < 500) {
    const detail = error.expose ? error.message : (TITLES[error.status] ?? 'Request refused');
    body = { type: '/problems/http', title: TITLES[error.status] ?? 'Request refused', status: error.status, detail, instance: ctx.path };
    headers = error.headers ?? {};
  } else {
    log.error({ err: error }, 'request failed');
    body = {
      type: problemTypeUri('internal'),
      title: PROBLEM_TYPES.internal.title,
      status: 500,
      detail: 'the server failed to answer this request; it has been logged under the correlation id',
      instance: ctx.path,
    };
  }
  if (correlationId) body.correlationId = correlationId;
  ctx.status = body.status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.body = body;
  ctx.type = 'application/problem+json';
}
