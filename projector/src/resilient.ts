// Runs a follower of the log until stopped: when it fails, it waits (bounded, jittered
// exponential backoff) and starts again from its checkpoint.
import type { Logger } from '@eventide/shared/log.ts';

const BACKOFF_MS = { first: 100, max: 10_000 };

export function runResilient(name: string, signal: AbortSignal, log: Logger, follow: () => Promise<void>): Promise<void> {
  return (async () => {
    let failures = 0;
    while (!signal.aborted) {
      try {
        await follow();
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
        log.error({ err: error, retryInMs: Math.round(delay) }, `${name} failed; resuming from its checkpoint`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  })();
}
