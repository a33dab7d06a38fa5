// What runs on a request thread (pool.ts starts it; infra/src/request-thread.ts names its
// services): the reads of the read models and the docs, on connections of its own to
// the same stores, listening on the process's port beside the writing thread. It hands every other
// request to the writing thread (routing.ts, hand-over.ts), spends the process's rate-limit
// counters (limiters.ts), and hears from it each time the read models moved, so that a read
// waiting for a write is answered at once, as on the writing thread.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Config } from '@eventide/kernel/config.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { API_ROUTES } from '@eventide/contract/routes.ts';
import { tableLimiters, type CounterTable } from '@eventide/platform/auth/shared-counters.ts';
import { serve } from '@eventide/platform/http/serve.ts';
import type { MetricsJson } from '@eventide/platform/metrics/serve-metrics.ts';
import { compose, progressSignal, type ServiceFactory } from '../compose.ts';
import { startHeapReducer } from '../heap-reducer.ts';
import { httpAppOf } from '../http.ts';
import { handOverTo, type Door } from './hand-over.ts';
import { threadLimiters } from './limiters.ts';
import { pathOf, requestThreadAnswers } from './routing.ts';
import { steerConnections } from './steering.ts';

export interface RequestThreadData {
  name: string;
  /** The process logger's level, which a test may have set apart from LOG_LEVEL. */
  level: string;
  /** The process's configuration as it was read, with the secrets the writing thread made. */
  config: Config;
  /** This thread's number, from 1 (the writing thread is 0), for its log lines. */
  index: number;
  /** How many threads listen on the port, the writing thread among them. */
  threads: number;
  door: Door;
  limits: MessagePort;
  /** The process's counters in shared memory, when they are in memory (else each is asked over `limits`). */
  counters?: CounterTable;
  /** Whether the projector had announced itself before this thread started (compose.ts ProgressSignal). */
  projectorAnnounced: boolean;
}
export type ToRequestThread = { type: 'projected' } | { type: 'stop' } | { type: 'metrics'; id: number };
export type FromRequestThread = { type: 'listening' } | { type: 'metrics'; id: number; metrics: MetricsJson };

/** What a request thread adds to the process's metrics: its requests, and the refusals of its limits (the writing thread counts only its own). */
const THREAD_METRICS = ['http_request_duration_seconds', 'rate_limit_refusals_total'];

/** Runs the thread: it answers the reads of `services` (routing.ts) and hands over the rest. */
export async function runRequestThread(services: Record<string, ServiceFactory>): Promise<void> {
  const port = parentPort!;
  const data = workerData as RequestThreadData;
  const log = createLogger({ level: data.level, name: data.name }).child({ thread: data.index });
  const projected = progressSignal();
  if (data.projectorAnnounced) projected.notify();
  const overThePort = threadLimiters(data.limits);
  const limiters = data.counters ? tableLimiters(data.counters, overThePort) : overThePort;
  const composition = await compose({ config: data.config, log, limiters, projected }, services);
  const app = httpAppOf(composition, log);
  // Derived from what this thread runs, so that a service is answered here exactly when it is composed.
  const answersHere = requestThreadAnswers(API_ROUTES, new Set(composition.apis.map((api) => api.service)));
  const handOver = handOverTo(data.door, log);
  const heap = startHeapReducer(log);
  const server = await serve({
    app,
    config: data.config,
    log,
    threads: data.threads,
    signals: false,
    listener: (answer) => (req, res) => (answersHere(req.method ?? 'GET', pathOf(req.url)) ? answer(req, res) : handOver.request(req, res)),
    beforeDrain: composition.disconnect,
    onClose: async () => {
      heap.stop();
      handOver.close();
      await composition.close();
    },
  });
  server.on('upgrade', handOver.upgrade);
  steerConnections(server, { answersHere, pipe: handOver.pipe, firstLineTimeoutMs: data.config.HTTP_HEADERS_TIMEOUT_MS });
  composition.attach(server);
  const { registry } = composition.platform.metrics;
  port.on('message', async (message: ToRequestThread) => {
    if (message.type === 'projected') projected.notify();
    else if (message.type === 'metrics') {
      const metrics = ((await registry.getMetricsAsJSON()) as MetricsJson).filter((metric) => THREAD_METRICS.includes(metric.name));
      port.postMessage({ type: 'metrics', id: message.id, metrics } satisfies FromRequestThread);
    } else void server.stop('the process is stopping');
  });
  port.postMessage({ type: 'listening' } satisfies FromRequestThread);
}
