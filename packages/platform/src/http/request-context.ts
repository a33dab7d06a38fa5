// Per-request context: a correlation id (taken from the caller when it is sane, else made),
// a child logger carrying it, and one access-log line per request. Query strings are never
// logged: they may carry codes and tokens.
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { newId } from '@eventide/kernel/ids.ts';
import type { Logger } from '@eventide/kernel/log.ts';

/** What a caller may offer as a correlation id; anything else is replaced by a new one (and the front door applies the same rule). */
export const SANE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const CORRELATION_HEADER = 'X-Correlation-Id';

export function requestContext(log: Logger): Middleware {
  // The request line's fields are fixed and none is a secret (the path never holds the query), so
  // it skips the redaction pass that every other line takes (logging was a fifth of the CPU time
  // of a request that did nothing else).
  const requestLines = log.child({}, { redact: [] });
  return async (ctx, next) => {
    const offered = ctx.get(CORRELATION_HEADER) || ctx.get('X-Request-Id');
    const correlationId = SANE_CORRELATION_ID.test(offered) ? offered : newId();
    ctx.state.correlationId = correlationId;
    ctx.state.rootLog = log;
    ctx.set(CORRELATION_HEADER, correlationId);
    const started = performance.now();
    const requestLine = (extra: Record<string, unknown> = {}) => {
      const line = {
        correlationId,
        ...traceOf(ctx.state),
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...extra,
      };
      // 503 is a planned answer (a read that could not wait long enough), not a failure.
      const level = extra.cutOff || (ctx.status >= 500 && ctx.status !== 503) ? 'error' : ctx.status === 503 ? 'warn' : 'info';
      requestLines[level](line, 'request');
    };
    try {
      await next();
    } catch (error) {
      requestLine();
      throw error;
    }
    if (ctx.body instanceof Readable) logWhenSent(ctx, ctx.body, requestLine);
    else requestLine();
  };
}

/**
 * A streamed answer is logged once it is over, not when its headers are ready: its status is sent
 * before the body is read, so a failure then can only cut the body short, and the line says so
 * beside the status the client really got.
 */
function logWhenSent(ctx: Context, body: Readable, requestLine: (extra?: Record<string, unknown>) => void): void {
  let failure: Error | undefined;
  body.once('error', (error: Error) => {
    failure = error;
  });
  ctx.res.once('close', () => {
    if (ctx.res.writableFinished) requestLine();
    else if (failure) {
      requestLogger(ctx)?.error({ err: failure }, 'the answer failed after its first byte: the client got it cut short');
      requestLine({ cutOff: true });
    } else requestLine({ clientLeft: true });
  });
}

const traceOf = (state: { traceId?: string }) => (state.traceId ? { traceId: state.traceId } : {});

/**
 * The request's logger: every line with its correlation id (and trace id, when traced); none
 * outside requestContext. Made on first use: most requests log nothing but their request line,
 * and a child logger (its bindings serialised and redacted) cost more than that line.
 */
export function requestLogger(ctx: Context): Logger | undefined {
  const state = ctx.state as { rootLog?: Logger; log?: Logger; correlationId?: string; traceId?: string };
  if (state.rootLog) state.log ??= state.rootLog.child({ correlationId: state.correlationId, ...traceOf(state) });
  return state.log;
}
