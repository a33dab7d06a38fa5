// Spans are made whenever a tracer provider is registered, by our setup or by the SDK of a
// service that uses ours, and skipped (the work simply runs) when none is.
import { afterEach, describe, expect, it } from 'vitest';
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { inEventSpan, SpanKind } from './event-spans.ts';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const event = { id: 'e1', type: 'user:created', metadata: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } };

afterEach(() => {
  trace.disable();
  propagation.disable();
});

describe('event spans', () => {
  it("continue the event's trace under a provider the service registered itself", async () => {
    const exporter = new InMemorySpanExporter();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    expect(await inEventSpan('handle', SpanKind.CONSUMER, event, async () => 'handled')).toBe('handled');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.spanContext().traceId])).toEqual([['handle user:created', traceId]]);
  });

  it('run the work, with no span to be in, when no provider is registered', async () => {
    expect(await inEventSpan('handle', SpanKind.CONSUMER, event, async () => trace.getActiveSpan() ?? 'handled')).toBe('handled');
  });
});
