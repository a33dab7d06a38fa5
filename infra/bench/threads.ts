// Reads on several threads: `npm start` on the largest store with HTTP_THREADS=1, 2, … up to the
// cores, in turn and in rounds (1, 2, 1, 2, …, so that each count meets the same minutes of the
// machine), each read route loaded with 16 connections; and the raw floor (servers/raw-reads.ts,
// one thread) in the same rounds, so that ours per thread can be set against it. The load comes
// from wrk (C, one thread): autocannon, in this Node process, took a good part of a core that
// the server's second thread needed (GET /api/products on two threads ÷ on one: 1.4 with
// autocannon, 1.65 with wrk, the same minutes on a 20,000-event store).
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { freePort, startService } from '../test/process.ts';
import { until } from '@eventide/testing/wait.ts';
import { spawnServer } from './servers/spawn.ts';
import { p } from './percentile.ts';
import type { Measured } from './measured.ts';
import type { Sample } from './growth-sample.ts';

export interface ThreadScaling {
  /** The thread counts, 1 first. */
  counts: number[];
  rounds: number;
  load: string;
  routes: Array<{
    route: string;
    note: string;
    /** Per count, the median over the rounds. */
    perCount: Measured[];
    floor: Measured;
  }>;
}

/** The loads: wrk's one thread, 16 connections, for `seconds`. */
const WRK = (seconds: number) => ['-t1', '-c16', `-d${seconds}s`, '--latency'];

export const wrkMissing = (): string | undefined =>
  spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error ? 'wrk is not installed (Debian package wrk)' : undefined;

/** Milliseconds from wrk's `12.13ms`, `850.00us` or `1.02s`. */
function millisOf(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) throw new Error(`wrk printed a latency of ${text}`);
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'];
}

function wrk(url: string, seconds: number): Measured {
  const run = spawnSync('wrk', [...WRK(seconds), url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk ${url}: ${run.error?.message ?? run.stderr}`);
  const out = run.stdout;
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(out) ?? /Socket errors: (.*)/.exec(out);
  if (failed) throw new Error(`wrk ${url}: ${failed[0]}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  if (!rate || !p99) throw new Error(`wrk ${url} printed no rate or p99:\n${out}`);
  return { requestsPerSecond: Number(rate), p99: millisOf(p99) };
}

const median = (runs: Measured[]): Measured => ({
  requestsPerSecond: p(
    runs.map((r) => r.requestsPerSecond),
    0.5,
  ),
  p99: p(
    runs.map((r) => r.p99),
    0.5,
  ),
});

/** The read routes, each with the one path it is loaded with (wrk asks one URL): a page, a product, a word in about 1% of products. */
function routesOf({ ids, words }: Sample): Array<{ route: string; note: string; path: string }> {
  const steady = words.at(-1)!;
  return [
    { route: 'GET /api/products', note: 'newest 20', path: '/api/products' },
    { route: 'GET /products/{id}', note: 'one product', path: `/products/${ids[0]}` },
    { route: `GET /search?q= (${steady.label})`, note: `\`${steady.q}\``, path: `/search?q=${steady.q}` },
  ];
}

/** On the store at `dataDir`, of which `sample` was taken; nothing else may serve it meanwhile. */
export async function benchThreads(dataDir: string, sample: Sample, seconds: number, rounds: number): Promise<ThreadScaling> {
  const routes = routesOf(sample);
  const counts = [...new Set([1, 2, availableParallelism()])].sort((a, b) => a - b);
  const ours = routes.map(() => counts.map(() => [] as Measured[]));
  const floors = routes.map(() => [] as Measured[]);
  const floor = await spawnServer('./raw-reads.ts', { DATA_DIR: dataDir });
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [c, count] of counts.entries()) {
        const metricsPort = await freePort();
        const service = await startService({
          DATA_DIR: dataDir,
          HTTP_THREADS: String(count),
          RATE_LIMIT_SEARCH_PER_SECOND: '1000000000',
          METRICS_PORT: String(metricsPort),
        });
        try {
          // The writing thread answers first; the request threads join it once started. And the web
          // app is built (esbuild, a core for a second) beside the start: not while the figures are taken.
          await until(
            async () => {
              const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()) as {
                listening?: number;
                webApp: string;
              };
              return (count === 1 || health.listening === count - 1) && health.webApp !== 'being built';
            },
            `the ${count - 1} request threads to listen and the web app to be built`,
          );
          for (const [r, { path }] of routes.entries()) ours[r]![c]!.push(wrk(service.url + path, seconds));
        } finally {
          await service.stop();
        }
      }
      for (const [r, { path }] of routes.entries()) floors[r]!.push(wrk(`http://127.0.0.1:${floor.port}${path}`, seconds));
    }
  } finally {
    floor.stop();
  }
  return {
    counts,
    rounds,
    load: `wrk, one thread, 16 connections, ${seconds} s per figure`,
    routes: routes.map(({ route, note }, r) => ({ route, note, perCount: ours[r]!.map(median), floor: median(floors[r]!) })),
  };
}
