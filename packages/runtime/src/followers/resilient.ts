// Runs a follower of the log until stopped: when it fails, it waits (bounded, jittered
// exponential backoff) and starts again from its checkpoint.
import { backoffDelay, sleep } from '@eventide/kernel/backoff.ts';
import type { Logger } from '@eventide/kernel/log.ts';

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
        const delay = backoffDelay(failures);
        log.error({ err: error, retryInMs: Math.round(delay) }, `${name} failed; resuming from its checkpoint`);
        await sleep(delay);
      }
    }
  })();
}
