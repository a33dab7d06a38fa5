// The projector service on a thread of its own, for `npm start`: the followers (projector,
// publisher, forgetter) read and write the stores on the second core while the first answers
// requests. On one thread with them, each sign-up cost 150-160 µs of CPU more, and the process
// took a quarter fewer (docs/benchmarks.md). The thread opens its own connections to the same files, as
// `npm run start:projector` in another process would; what it adds over that is being told at
// once: appends wake its followers (event-store/sqlite-wake.ts), and it says each time the read
// models moved, so that reads waiting for a write here are answered without polling.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Config } from '@eventide/kernel/config.ts';
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { followerGauges, projectorService } from './service.ts';

/** What the thread starts from: the process's configuration as it was read, not the environment again. */
export interface ThreadData {
  name: string;
  /** The process logger's level, which a test may have set apart from LOG_LEVEL. */
  level: string;
  config: Config;
}
export type ToThread = { type: 'close' };
/** Where each follower has got, as the operator's GET /health says it (METRICS_PORT). */
export interface Positions {
  projectedTo: number;
  publishedTo: number;
  forgottenTo: number;
}
export type FromThread =
  | { type: 'started'; health: Record<string, unknown>; positions: Positions }
  | {
      type: 'progress';
      /** Whether the read models moved (not only the publisher or the forgetter). */
      projected: boolean;
      positions: Positions;
    };

/**
 * The projector service of a process that also serves requests: on a thread of its own unless
 * FOLLOWERS_THREAD is `off`, or unset on one core, where a thread would only cost its memory
 * (35-45 MB: a second V8 heap with the stores' modules).
 */
export function projectorBesideRequests(name: string): ServiceFactory {
  return (platform) => {
    const onThread = (platform.config.FOLLOWERS_THREAD ?? (availableParallelism() > 1 ? 'on' : 'off')) === 'on';
    return onThread ? projectorOnThread(name)(platform) : projectorService()(platform);
  };
}

/**
 * `name`: the process's, for the thread's log lines and spans (runServices).
 *
 * On an empty event store the thread is started by the first event, not at start: until then it
 * has nothing to follow, and a second V8 isolate with the stores' modules is some 45 MiB of an
 * idle process's memory (docs/benchmarks.md#start-up-and-idle-memory). The first event wakes the
 * waiting subscription at once when it is appended in this process, within the store's poll
 * interval when in another; the thread then follows from the beginning, as it would have.
 */
export function projectorOnThread(name: string): ServiceFactory {
  return async (platform) => {
    const { log, eventStore, metrics } = platform;
    const events = await eventStore();
    let thread: ThreadHandle | undefined;
    let starting: Promise<ThreadHandle> | undefined;
    const start = () => (starting ??= startThread(name, platform).then((started) => (thread = started)));
    const waiting = new AbortController();
    if ((await events.store.head()) > 0) await start();
    else {
      // What the read models hold stands still until the thread starts, which it announces: the
      // query service may keep what the store says until then (query-service/src/consistency.ts).
      platform.projected.notify();
      void (async () => {
        for await (const _ of events.store.subscribeToAll({ after: 0, signal: waiting.signal })) break;
        if (!waiting.signal.aborted) await start();
      })().catch((error: unknown) => {
        if (!waiting.signal.aborted) {
          log.fatal({ err: error }, "the projector's thread could not be started");
          log.flush(() => process.exit(1));
        }
      });
    }
    const idle: Positions = { projectedTo: 0, publishedTo: 0, forgottenTo: 0 };
    followerGauges(metrics, events.store, {
      projected: () => (thread ?? { positions: idle }).positions.projectedTo,
      published: () => (thread ?? { positions: idle }).positions.publishedTo,
    });
    return {
      health: () => (thread ? { ...thread.health, ...thread.positions } : { followers: 'waiting for the first event', ...idle }),
      async close() {
        waiting.abort();
        const started = await starting?.catch(() => undefined);
        await started?.close();
      },
    } satisfies Service;
  };
}

interface ThreadHandle {
  readonly health: Record<string, unknown>;
  readonly positions: Positions;
  close(): Promise<void>;
}

/** Starts the followers' thread and resolves once they have started. */
async function startThread(name: string, { config, log, projected }: Parameters<ServiceFactory>[0]): Promise<ThreadHandle> {
  const worker = new Worker(new URL('./thread-entry.ts', import.meta.url), {
    workerData: { name, level: log.level, config } satisfies ThreadData,
  });
  let health: Record<string, unknown> = {};
  let positions: Positions = { projectedTo: 0, publishedTo: 0, forgottenTo: 0 };
  /** Set once the thread is told to stop, or failed: its end is then no news. */
  let ending = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.on('message', (message: FromThread) => {
    positions = message.positions;
    if (message.type === 'started') health = message.health;
    else if (message.projected) projected.notify();
  });
  await new Promise<void>((resolve, reject) => {
    const started = (message: FromThread) => {
      if (message.type !== 'started') return;
      worker.off('message', started);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', started);
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`the projector's thread exited with ${code} before it started`)));
  });
  // Once started, a thread that fails or ends on its own leaves no one to project: the process
  // ends with an error, as it would had the failure been on its own thread, so that whatever
  // supervises it starts it again. Every acknowledged write is already committed.
  const endProcess = (fields: Record<string, unknown>, message: string) => {
    ending = true;
    log.fatal(fields, message);
    log.flush(() => process.exit(1));
  };
  worker.on('error', (error) => endProcess({ err: error }, "the projector's thread failed"));
  void exited.then((code) => ending || endProcess({ code }, "the projector's thread ended"));

  return {
    get health() {
      return health;
    },
    get positions() {
      return positions;
    },
    async close() {
      ending = true;
      worker.postMessage({ type: 'close' } satisfies ToThread);
      await exited;
    },
  };
}
