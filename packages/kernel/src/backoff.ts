// How long to wait before trying again, for everything here that retries: followers of the log,
// subscribers' streams and consumers, handlers of an event, the editor's socket. Exponential,
// bounded and jittered (the `retry` package's timeouts), so that clients that failed together do
// not come back together.
import retry from 'retry';

export interface BackoffPolicy {
  /** The wait after the first failure, before jitter (which multiplies by 1 to 2). */
  firstMs: number;
  /** No wait is longer than this. */
  maxMs: number;
}

/** Reconnecting and restarting: soon at first, at most every 10 s while a peer stays down. */
export const RECONNECT: BackoffPolicy = { firstMs: 100, maxMs: 10_000 };

/** The wait after the `failures`-th failure in a row (1 for the first). */
export function backoffDelay(failures: number, policy: BackoffPolicy = RECONNECT): number {
  return retry.createTimeout(Math.max(0, failures - 1), {
    minTimeout: policy.firstMs,
    maxTimeout: policy.maxMs,
    factor: 2,
    randomize: true,
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
