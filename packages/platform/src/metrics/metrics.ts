// What a process measures of itself, on prom-client: one registry per composition of services
// (so that tests composing several in one process keep them apart), served by serve-metrics.ts.
// Names follow Prometheus's conventions: a unit suffix, `_total` for counters, base units.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets, in seconds, from a cached read to a slow durable commit. */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface Metrics {
  registry: Registry;
  /** Per route template (`/products/:id`, never the id itself), method and status; its _count is the request rate. */
  httpRequestSeconds: Histogram<'method' | 'route' | 'status'>;
  /** One append or ordered group of appends, until committed (outcome ok, conflict or error). */
  appendSeconds: Histogram<'outcome'>;
  /** A request or message refused by a rate limit, by the limit's name. */
  rateLimitRefusals: Counter<'limit'>;
  /** Operations applied to collaborative documents. */
  collabOps: Counter;
  /**
   * A gauge read when scraped: `read` answers its value (or values by label) then. For the lags of
   * followers, which are cheapest asked only when someone looks.
   */
  gaugeOnScrape(name: string, help: string, read: () => Promise<number> | number): void;
  /** The same, with one value per value of a label (a follower's parked events, by follower). */
  labeledGaugeOnScrape(name: string, help: string, label: string, read: () => Promise<Record<string, number>>): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequestSeconds: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status, and how long each took',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers: [registry],
    }),
    appendSeconds: new Histogram({
      name: 'eventstore_append_duration_seconds',
      help: 'Appends to the event store until committed, by outcome (ok, conflict, error)',
      labelNames: ['outcome'],
      buckets: SECONDS,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests and messages refused by a rate limit, by limit',
      labelNames: ['limit'],
      registers: [registry],
    }),
    collabOps: new Counter({
      name: 'collab_ops_total',
      help: 'Operations applied to collaborative documents',
      registers: [registry],
    }),
    gaugeOnScrape(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
    labeledGaugeOnScrape(name, help, label, read) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          const values = await read();
          this.reset();
          for (const [value, n] of Object.entries(values)) this.set({ [label]: value }, n);
        },
      });
    },
  };
}
