// GET /metrics in Prometheus's text format, GET /health with what the process runs (its
// adapters, their files, how far each follower got) and GET /health/ready with every check's details, on a port of its own (METRICS_PORT), bound to
// loopback unless METRICS_HOST says otherwise: the figures are for the operator, not for the
// public the service port faces (its GET /health says only that it answers), and a scrape never
// queues behind the service's own requests' limits or sessions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@eventide/kernel/log.ts';
import type { Readiness } from '@eventide/contract/resources/site/health.ts';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Metrics } from './metrics.ts';
import { listenRefusal } from '@eventide/kernel/listen-refusal.ts';

/** A registry's metrics as prom-client gives them in JSON (getMetricsAsJSON). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export interface MetricsOptions {
  host: string;
  port: number;
  log: Logger;
  /** What GET /health says here: every service's facts (compose.ts). */
  health?: () => Record<string, unknown>;
  /** GET /health/ready here: every check with what it observed and why it failed (the service port tells the public only each status). */
  ready?: () => Promise<Readiness>;
  /**
   * The other threads' metrics, added to this one's at each scrape (counts and histograms summed):
   * the request threads' requests (runtime/request-threads).
   */
  otherThreads?: () => Promise<MetricsJson[]>;
}

/** This registry's text, with the other threads' metrics summed into it. */
async function scrape(metrics: Metrics, otherThreads: MetricsOptions['otherThreads']): Promise<string> {
  const others = (await otherThreads?.()) ?? [];
  if (others.length === 0) return metrics.registry.metrics();
  const own = (await metrics.registry.getMetricsAsJSON()) as MetricsJson;
  return AggregatorRegistry.aggregate([own, ...others]).metrics();
}

export async function serveMetrics(metrics: Metrics, options: MetricsOptions): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (request.method === 'GET' && path === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', ...options.health?.() }));
      return;
    }
    if (request.method === 'GET' && path === '/health/ready' && options.ready) {
      options.ready().then(
        (answer) =>
          response
            .writeHead(answer.status === 'pass' ? 200 : 503, { 'content-type': 'application/health+json', 'cache-control': 'no-store' })
            .end(JSON.stringify(answer)),
        (error: unknown) => {
          options.log.error({ err: error }, 'readiness probes failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('readiness probes failed\n');
        },
      );
      return;
    }
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics, GET /health, GET /health/ready\n');
      return;
    }
    scrape(metrics, options.otherThreads).then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        options.log.error({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('collecting metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(listenRefusal(error, { port: 'METRICS_PORT', host: 'METRICS_HOST' }, options.port, options.host)),
    );
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  options.log.info({ port, url: `http://${options.host}:${port}/metrics` }, 'serving metrics');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
