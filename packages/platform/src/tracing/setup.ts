// OpenTelemetry's SDK for this process, only when an OTLP endpoint is configured: spans go to it
// over OTLP/HTTP in batches, with W3C Trace Context as the propagator. The exporter reads the
// standard OTEL_EXPORTER_OTLP_* variables itself (headers, timeouts, compression). Unconfigured,
// nothing here is loaded and the API stays a no-op (spans.ts). The only file that imports the SDK.
import { context, propagation, trace } from '@eventide/stores/tracing/otel-api.ts';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Config } from '@eventide/kernel/config.ts';

export interface Tracing {
  /** Where spans go, for the start-up line (the endpoint's origin: never credentials). */
  description: string;
  /** Exports what is buffered, then stops: call after the services have stopped. */
  shutdown(): Promise<void>;
}

type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SERVICE_NAME'>;

export function tracingConfigured(config: TracingConfig): boolean {
  return Boolean(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

export interface TracingOptions {
  /** The service name when OTEL_SERVICE_NAME is unset. */
  serviceName: string;
  /** Instead of the OTLP exporter: for tests that look at the spans themselves. */
  processors?: SpanProcessor[];
}

export async function startTracing(config: TracingConfig, { serviceName, processors }: TracingOptions): Promise<Tracing> {
  const [
    { TracerProvider, BatchSpanProcessor, ParentBasedSampler, AlwaysOnSampler },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  let description = 'spans to the processors given';
  let spanProcessors = processors;
  if (!spanProcessors) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const endpoint = config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${config.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/$/, '')}/v1/traces`;
    spanProcessors = [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: endpoint }) })];
    description = `spans over OTLP/HTTP to ${new URL(endpoint).origin}`;
  }
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? serviceName }),
    // A caller's decision not to sample is kept, so that one trace is whole or absent.
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    description,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
