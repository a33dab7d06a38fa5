// The OpenTelemetry API, as its CommonJS build: prom-client's default metrics require() that one,
// and an ES import of the API loaded its ES build beside it, two copies of some fifty modules
// (40 ms of a start on two cores, 2026-11-30). The copies kept one tracer provider between them
// (the API holds it under a global symbol), so only the start was the worse for it.
import { createRequire } from 'node:module';
import type * as OpenTelemetry from '@opentelemetry/api';

// Named `require`, so that the architecture test, reading this source, finds the package (the packer reads
// the bundle, which prints this call as `createRequire(…)(…)`: package-names.ts).
const require = createRequire(import.meta.url);
const api: typeof OpenTelemetry = require('@opentelemetry/api');

export const { context, propagation, trace, ProxyTracerProvider, ROOT_CONTEXT, SpanKind, SpanStatusCode } = api;
export type SpanKind = OpenTelemetry.SpanKind;
export type { Context, Span } from '@opentelemetry/api';
