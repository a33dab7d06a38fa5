// The request threads of `npm start` (HTTP_THREADS - 1 of them), from the writing thread's side:
// each is started with the process's configuration and a private door to hand requests over
// (hand-over.ts), is given the process's rate-limit counters (limiters.ts) and every
// announcement that the read models moved, and is started again with backoff if it ends on its
// own. Meanwhile the other threads listening on the port take its connections.
import { MessageChannel, Worker } from 'node:worker_threads';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import type { Config } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { MetricsJson } from '@eventide/platform/metrics/serve-metrics.ts';
import type { ProgressSignal } from '../compose.ts';
import type { Door } from './hand-over.ts';
import { serveLimiters } from './limiters.ts';
import type { FromRequestThread, RequestThreadData, ToRequestThread } from './thread.ts';

export interface RequestThreadPool {
  /** How many are listening now, and how often one was started again. */
  health(): { requestThreads: number; listening: number; restarts: number };
  /** Each running thread's own metrics (its requests), for the metrics port to add to this thread's. */
  metrics(): Promise<MetricsJson[]>;
  /** Asks each to stop as the process does (drain, then close), and waits until they have. */
  stop(): Promise<void>;
}

/** How long a scrape waits for a thread's metrics: a thread too busy to answer is left out of that scrape. */
const METRICS_WAIT_MS = 1_000;

export interface PoolOptions {
  /** The module that runs a thread (infra/src/request-thread.ts). */
  entry: URL;
  name: string;
  config: Config;
  log: Logger;
  threads: number;
  door: Door;
  limits: OpenedAuth['threadLimits'];
  projected: ProgressSignal;
}

/** A thread that stays up this long has recovered: the next failure waits the shortest backoff again. */
const STABLE_MS = 60_000;

export async function startRequestThreads(options: PoolOptions): Promise<RequestThreadPool> {
  const { entry, name, config, log, threads, door, limits, projected } = options;
  const running = new Map<number, Worker>();
  let stopping = false;
  let restarts = 0;
  let nextAsk = 0;

  function start(index: number): Promise<Worker> {
    // Where the thread asks for the counters the table does not hold.
    const asks = new MessageChannel();
    serveLimiters(asks.port1, limits.served);
    const worker = new Worker(entry, {
      workerData: {
        name,
        level: log.level,
        config,
        index,
        threads,
        door,
        limits: asks.port2,
        ...(limits.table ? { counters: limits.table } : {}),
        projectorAnnounced: projected.notifications() > 0,
      } satisfies RequestThreadData,
      transferList: [asks.port2],
    });
    const unsubscribe = projected.subscribe(() => worker.postMessage({ type: 'projected' } satisfies ToRequestThread));
    worker.on('error', (error) => log.error({ err: error, thread: index }, 'a request thread failed'));
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    void exited.then(() => {
      unsubscribe();
      asks.port1.close();
      running.delete(index);
    });
    return new Promise<Worker>((resolve, reject) => {
      worker.once('message', (message: FromRequestThread) => {
        if (message.type === 'listening') resolve(worker);
      });
      void exited.then((code) => reject(new Error(`request thread ${index} exited with ${code} before it listened`)));
    });
  }

  /**
   * Keeps thread `index` running: started, and started again with backoff each time it ends or fails
   * to start (its stores unreachable as it opens them), until the pool stops. Meanwhile the other
   * threads, the writing one among them, take the connections: a thread that cannot start never
   * stops the process.
   */
  async function keep(index: number): Promise<void> {
    let failures = 0;
    let starts = 0;
    while (!stopping) {
      const startedAt = Date.now();
      const worker = await start(index).catch((error: unknown) => {
        log.error({ err: error, thread: index }, 'a request thread could not be started; trying again');
        return undefined;
      });
      if (worker && stopping) return stopThread(worker);
      if (worker) {
        running.set(index, worker);
        log.info({ thread: index, threads }, 'a request thread listens beside this one');
        if (starts++ > 0) restarts++;
        const code = await new Promise<number>((resolve) => worker.once('exit', resolve));
        if (stopping) return;
        if (Date.now() - startedAt > STABLE_MS) failures = 0;
        log.error({ thread: index, code }, 'a request thread ended; it starts again');
      }
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(++failures)).unref());
    }
  }

  /** Asks a thread to stop as the process does, and waits until it has. */
  async function stopThread(worker: Worker): Promise<void> {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ type: 'stop' } satisfies ToRequestThread);
    await exited;
  }

  for (let index = 1; index < threads; index++) void keep(index);
  return {
    health: () => ({ requestThreads: threads - 1, listening: running.size, restarts }),
    async metrics() {
      const asked = [...running.values()].map(
        (worker) =>
          new Promise<MetricsJson | undefined>((resolve) => {
            const id = nextAsk++;
            const timer = setTimeout(() => done(undefined), METRICS_WAIT_MS);
            const listener = (message: FromRequestThread) => {
              if (message.type === 'metrics' && message.id === id) done(message.metrics);
            };
            const done = (metrics: MetricsJson | undefined) => {
              clearTimeout(timer);
              worker.off('message', listener);
              resolve(metrics);
            };
            worker.on('message', listener);
            worker.postMessage({ type: 'metrics', id } satisfies ToRequestThread);
          }),
      );
      return (await Promise.all(asked)).filter((metrics) => metrics !== undefined);
    },
    async stop() {
      stopping = true;
      await Promise.all([...running.values()].map(stopThread));
    },
  };
}
