// The spans of an event's path, on the OpenTelemetry API alone: the append, then for each event
// its projection, its publication and each subscriber's handling (the HTTP request's span, which
// comes first, is the platform's: platform/tracing/spans.ts). Trace context
// crosses the event store in the events' metadata (`traceparent`, W3C Trace Context) and Kafka in
// a `traceparent` header. Without a registered SDK (setup.ts; only when an exporter is configured)
// the API is a no-op: no span is made and no event carries a traceparent.
import {
  context,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from './otel-api.ts';
import { withAppends } from '../event-store/decorate.ts';
import type { EventStore } from '../event-store/port.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';

export { SpanKind };

export const tracer = () => trace.getTracer('eventide');

/**
 * Whether a tracer provider is registered (setup.ts, or the SDK of a service using ours). Without
 * one every span is a no-op, yet making one still ran the API's context plumbing: a twentieth of
 * the CPU time of a read by id. So the request, append and handler paths skip it until then.
 */
export function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('eventide') !== undefined;
}

/** The W3C traceparent of a context's span, when there is one to continue. */
function traceparentIn(ctx: Context): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** An event's traceparent, if it has one that is a string at all (a delivered event may be anything). */
function traceparentOf(event: TracedEvent): string | undefined {
  const traceparent = event.metadata?.traceparent;
  return typeof traceparent === 'string' ? traceparent : undefined;
}

/** The context a traceparent continues; the root when it is absent or malformed (the propagator checks it). */
function contextOf(traceparent: string): Context {
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Marks the active span failed: for work that ends in a handled failure (a dead letter), not a throw. */
export function markFailed(error: unknown): void {
  const span = trace.getActiveSpan();
  if (span) failed(span, error);
}

/** Runs `work` in an active span (its spans and appends nest under it), ended and marked by how it went. */
async function inSpan<R>(
  name: string,
  kind: SpanKind,
  parent: Context,
  attributes: Record<string, string | number>,
  work: () => Promise<R>,
) {
  if (!tracing()) return work();
  return tracer().startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Each event carries the append span's traceparent, so that whoever follows the log continues its trace. */
function withTraceparent(events: NewEvent[]): NewEvent[] {
  if (!tracing()) return events;
  const traceparent = traceparentIn(context.active());
  if (!traceparent) return events;
  return events.map((event) => ({ ...event, metadata: { ...event.metadata, traceparent } }));
}

/** The event store with each append in a span, and the span's traceparent in the appended events' metadata. */
export function tracedEventStore(store: EventStore): EventStore {
  return withAppends(store, {
    append: (streamId, events, options) =>
      inSpan(
        `append ${streamId.split('-')[0]}`,
        SpanKind.CLIENT,
        context.active(),
        { 'eventide.stream': streamId, 'eventide.events': events.length },
        () => store.append(streamId, withTraceparent(events), options),
      ),
    appendInOrder: (appends) =>
      inSpan('append', SpanKind.CLIENT, context.active(), { 'eventide.streams': appends.length }, () =>
        store.appendInOrder(appends.map((a) => ({ ...a, events: withTraceparent(a.events) }))),
      ),
  });
}

export interface TracedEvent {
  id: string;
  type: string;
  metadata?: { traceparent?: unknown } | undefined;
}

/**
 * `work` on a batch of events, in one span per event that carries a traceparent (each a child of
 * its own event's trace: a batch mixes requests). `work` is given each span's traceparent, for
 * what it passes on (the publisher's Kafka messages). Events without one are simply worked on.
 */
export async function inEventSpans<R>(
  stage: string,
  kind: SpanKind,
  events: readonly TracedEvent[],
  work: (traceparents: ReadonlyArray<string | undefined>) => Promise<R>,
): Promise<R> {
  const spans = events.map((event) => {
    const traceparent = traceparentOf(event);
    if (!traceparent) return undefined;
    const attributes = { 'eventide.event_id': event.id, 'eventide.event_type': event.type };
    return tracer().startSpan(`${stage} ${event.type}`, { kind, attributes }, contextOf(traceparent));
  });
  try {
    return await work(spans.map((span) => (span ? traceparentIn(trace.setSpan(ROOT_CONTEXT, span)) : undefined)));
  } catch (error) {
    for (const span of spans) if (span) failed(span, error);
    throw error;
  } finally {
    for (const span of spans) span?.end();
  }
}

/** `work` on one event in an active span continuing its trace: a subscriber's handlers, whose own spans nest under it. */
export function inEventSpan<R>(stage: string, kind: SpanKind, event: TracedEvent, work: () => Promise<R>): Promise<R> {
  const traceparent = traceparentOf(event);
  if (!traceparent) return work();
  const attributes = { 'eventide.event_id': event.id, 'eventide.event_type': event.type };
  return inSpan(`${stage} ${event.type}`, kind, contextOf(traceparent), attributes, work);
}
