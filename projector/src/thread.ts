// The projector service on a thread of its own, for `npm start`: the followers (projector,
// publisher, forgetter) read and write the stores on the second core while the first answers
// requests. On one thread with them, each sign-up cost 150-160 µs of CPU more, and the process
// took a quarter fewer (docs/benchmarks.md). The thread opens its own connections to the same files, as
// `npm run start:projector` in another process would; what it adds over that is being told at
// once: appends wake its followers (event-store/sqlite-wake.ts), and it says each time the read
// models moved, so that reads waiting for a write here are answered without polling.
import { PROJECTOR_FOLLOWERS } from '@eventide/kernel/events/followers.ts';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Config } from '@eventide/kernel/config.ts';
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { followerGauges, projectorService } from './service.ts';
import { followersProbe, parkedGauge, type Positions } from '@eventide/runtime/followers/health.ts';
import { superviseThread, type RunningThread, type SupervisedThread } from './thread-supervisor.ts';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import { StoreUnavailableError } from '@eventide/stores/unavailable.ts';
import { setTimeout as abortableDelay } from 'node:timers/promises';

/** Waits `ms`, or less when `signal` aborts; never rejects. */
const abortableSleep = (ms: number, signal: AbortSignal) => abortableDelay(ms, undefined, { signal }).catch(() => undefined);

export type { Positions } from '@eventide/runtime/followers/health.ts';

/** What the thread starts from: the process's configuration as it was read, not the environment again. */
export interface ThreadData {
  name: string;
  /** The process logger's level, which a test may have set apart from LOG_LEVEL. */
  level: string;
  config: Config;
}
export type ToThread = { type: 'close' };
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
 *
 * Once started, the thread is supervised (thread-supervisor.ts): one that fails or ends on its own
 * is started again with backoff while this thread goes on serving, and readiness says it is down.
 */
export function projectorOnThread(name: string): ServiceFactory<ProjectorOnThread> {
  return async (platform) => {
    const { log, eventStore, metrics, config } = platform;
    const events = await eventStore();
    const read = await platform.readModels();
    const parked = (await platform.parked()).store;
    let thread: SupervisedThread | undefined;
    let starting: Promise<SupervisedThread> | undefined;
    const start = () => (starting ??= superviseThread(() => startThread(name, platform), log).then((started) => (thread = started)));
    const waiting = new AbortController();
    if ((await events.store.head()) > 0) await start();
    else {
      // What the read models hold stands still until the thread starts, which it announces: the
      // query service may keep what the store says until then (query-service/src/consistency.ts).
      platform.projected.notify();
      void (async () => {
        // A store that cannot be reached now (PostgreSQL restarting) is waited for too.
        for (let failures = 0; !waiting.signal.aborted; ) {
          try {
            for await (const _ of events.store.subscribeToAll({ after: 0, signal: waiting.signal })) break;
            break;
          } catch (error) {
            if (!(error instanceof StoreUnavailableError)) throw error;
            log.warn({ err: error }, 'waiting for the first event: the event store cannot be reached; trying again');
            await abortableSleep(backoffDelay(++failures), waiting.signal);
          }
        }
        // Started while the process serves: a start that fails (its stores unreachable as it opens
        // them) is tried again, as the supervisor tries again a thread that ended.
        for (let failures = 0; !waiting.signal.aborted; ) {
          try {
            await start();
            break;
          } catch (error) {
            starting = undefined;
            log.error({ err: error }, "the projector's thread could not be started; trying again");
            await abortableSleep(backoffDelay(++failures), waiting.signal);
          }
        }
      })().catch((error: unknown) => {
        if (!waiting.signal.aborted) {
          log.fatal({ err: error }, "the projector's thread could not be started");
          log.flush(() => process.exit(1));
        }
      });
    }
    const idle: Positions = { projectedTo: 0, publishedTo: 0, forgottenTo: 0, webhooksAt: 0 };
    const positions = () => thread?.positions ?? idle;
    followerGauges(metrics, events.store, { projected: () => positions().projectedTo, published: () => positions().publishedTo });
    const health = {
      followers: PROJECTOR_FOLLOWERS,
      events: events.store,
      parked,
      activeGeneration: () => read.store.activeGeneration(),
      positions: () => thread?.state() ?? idle,
      maxStallSeconds: config.READY_MAX_STALL_SECONDS,
    };
    parkedGauge(metrics, health);
    const probe = followersProbe(health);
    return {
      thread: () => thread,
      health: () => (thread ? { ...thread.health, ...thread.positions } : { followers: 'waiting for the first event', ...idle }),
      probes: () => [probe],
      async close() {
        waiting.abort();
        const started = await starting?.catch(() => undefined);
        await started?.close();
      },
    };
  };
}

/** The followers' thread as a part of the process: supervised once it has started. */
export interface ProjectorOnThread extends Service {
  /** The supervised thread, once started (on an empty store, by the first event). */
  thread(): SupervisedThread | undefined;
}

/** Starts the followers' thread and resolves once they have started; `exited` settles when it ends, however. */
async function startThread(name: string, { config, log, projected }: Parameters<ServiceFactory>[0]): Promise<RunningThread> {
  const worker = new Worker(new URL('./thread-entry.ts', import.meta.url), {
    workerData: { name, level: log.level, config } satisfies ThreadData,
  });
  const running: RunningThread = {
    health: {},
    positions: { projectedTo: 0, publishedTo: 0, forgottenTo: 0, webhooksAt: 0 },
    exited: new Promise<number>((resolve) => worker.once('exit', resolve)),
    terminate: async () => void (await worker.terminate()),
    close: async () => {
      worker.postMessage({ type: 'close' } satisfies ToThread);
      await running.exited;
    },
  };
  worker.on('message', (message: FromThread) => {
    running.positions = message.positions;
    if (message.type === 'started') running.health = message.health;
    else if (message.projected) projected.notify();
  });
  // Its error is told by its end (exit code 1), which the supervisor hears.
  worker.on('error', (error) => log.error({ err: error }, "the projector's thread failed"));
  await new Promise<void>((resolve, reject) => {
    const started = (message: FromThread) => {
      if (message.type !== 'started') return;
      worker.off('message', started);
      resolve();
    };
    worker.on('message', started);
    void running.exited.then((code) => reject(new Error(`the projector's thread exited with ${code} before it started`)));
  });
  return running;
}
