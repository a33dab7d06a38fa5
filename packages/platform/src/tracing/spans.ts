// The HTTP request's span, the first of a write's path: the rest (the append, each event's
// projection, publication and handling) are the event spans of stores/tracing/event-spans.ts,
// which continue it through the events' metadata.
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@eventide/stores/tracing/otel-api.ts';
import type { Middleware } from 'koa';
import { tracer, tracing } from '@eventide/stores/tracing/event-spans.ts';
import { routeTemplate } from '../route-template.ts';

/**
 * A server span per request, continuing the caller's traceparent, named by the route template so
 * that ids never become span names. Its trace id joins the request's log lines. The query string
 * is left out: it may carry codes and tokens.
 */
export function httpTracing(): Middleware {
  return async (ctx, next) => {
    if (!tracing()) return next();
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const attributes = { 'http.request.method': ctx.method, 'url.path': ctx.path, 'eventide.correlation_id': ctx.state.correlationId };
    await tracer().startActiveSpan(ctx.method, { kind: SpanKind.SERVER, attributes }, parent, async (span) => {
      const traceId = span.spanContext().traceId;
      // For the request's log lines and its line in the access log (requestContext).
      if (span.isRecording()) ctx.state.traceId = traceId;
      try {
        await next();
      } finally {
        const route = routeTemplate(ctx);
        if (route !== undefined) {
          span.updateName(`${ctx.method} ${route}`);
          span.setAttribute('http.route', route);
        }
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    });
  };
}
