// Keeps the followers' thread running: one that fails or ends on its own (an error its work did
// not catch, a heap it outgrew, a kill) is started again after a bounded, jittered backoff, while
// the thread that serves requests goes on. Until it is back, readiness says it is down and why.
// Its stores are its own connections: a new thread resumes each follower from its checkpoint, and
// every acknowledged write is already committed, so nothing is lost or done twice but the batch
// it was in (followers are at least once; the read models are idempotent).
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { Positions } from '@eventide/runtime/followers/health.ts';

/** A thread that has started: what it reported last, and how it ends. */
export interface RunningThread {
  health: Record<string, unknown>;
  positions: Positions;
  /** Settles with its exit code when it ends, for whatever reason. */
  exited: Promise<number>;
  /** Ends it at once, without its own shutdown: as a crash would. */
  terminate(): Promise<void>;
  /** Asks it to stop cleanly and waits until it has. */
  close(): Promise<void>;
}

export interface SupervisedThread {
  /** What the thread running now (or last) reported. */
  readonly health: Record<string, unknown>;
  readonly positions: Positions;
  /** Where the followers are, or why they are not running now. */
  state(): Positions | { down: string };
  /** How often it was started again. */
  readonly restarts: number;
  /** Ends the running thread as a crash would: it is started again like after any failure. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** A thread that stays up this long has recovered: the next failure waits the shortest backoff again. */
const STABLE_MS = 60_000;

/** Starts the thread (`start` resolves once it has started) and keeps it running; rejects if the first start fails. */
export async function superviseThread(start: () => Promise<RunningThread>, log: Logger): Promise<SupervisedThread> {
  let current = await start();
  let startedAt = Date.now();
  let down: string | undefined;
  let failures = 0;
  let restarts = 0;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;

  function watch(thread: RunningThread): void {
    void thread.exited.then((code) => {
      if (!closing && thread === current) ended(`ended (exit code ${code})`);
    });
  }

  function ended(why: string): void {
    if (Date.now() - startedAt > STABLE_MS) failures = 0;
    failures++;
    const delay = backoffDelay(failures);
    down = `the followers' thread ${why}; it starts again in ${(delay / 1000).toFixed(1)} s (attempt ${failures})`;
    log.error({ failures, retryInMs: Math.round(delay) }, down);
    timer = setTimeout(() => {
      timer = undefined;
      if (closing) return;
      start().then(
        (thread) => {
          if (closing) return void thread.close();
          current = thread;
          startedAt = Date.now();
          down = undefined;
          restarts++;
          log.warn({ restarts }, "the followers' thread is running again");
          watch(thread);
        },
        (error: unknown) => ended(`could not be started (${error instanceof Error ? error.message : String(error)})`),
      );
    }, delay);
    timer.unref();
  }

  watch(current);
  return {
    get health() {
      return current.health;
    },
    get positions() {
      return current.positions;
    },
    get restarts() {
      return restarts;
    },
    state: () => (down === undefined ? current.positions : { down }),
    kill: () => current.terminate(),
    async close() {
      closing = true;
      clearTimeout(timer);
      await current.close();
    },
  };
}
