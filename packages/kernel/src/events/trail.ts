// One debug line per event at each stage it passes after the HTTP request that caused it, each
// with the request's correlation id (carried in the event's metadata): with LOG_LEVEL=debug, one
// grep for a correlation id follows a write from its request through the projector and the
// publisher to each subscriber's handlers; with tracing on, each line also has the trace id. Off by
// default: no line is built unless debug is on.
import type { Logger } from '../log.ts';

/** The trace id in the traceparent an event carries (`00-<trace id>-<span id>-<flags>`), for log lines. */
export function traceIdOf(traceparent: unknown): string | undefined {
  return typeof traceparent === 'string' ? traceparent.split('-')[1] : undefined;
}

interface Traced {
  id: string;
  type: string;
  position?: number;
  metadata: { correlationId: string; traceparent?: string | undefined };
}

export function logTrail(log: Logger, stage: string, events: readonly Traced[], extra: Record<string, unknown> = {}): void {
  if (!log.isLevelEnabled('debug')) return;
  for (const event of events) {
    log.debug(
      {
        correlationId: event.metadata.correlationId,
        traceId: traceIdOf(event.metadata.traceparent),
        eventId: event.id,
        eventType: event.type,
        position: event.position,
        ...extra,
      },
      stage,
    );
  }
}
