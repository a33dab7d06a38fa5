// A loop's sleep that something may cut short: a timer asleep until its next due time wakes when
// new work comes or the clock jumps (the deadlines, the webhooks' sender), and when it is stopped.
// A wake that comes while the loop is awake is kept for its next sleep, which then returns at
// once: no work announced between two looks is slept through.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WakeableSleep {
  /** Sleeps `ms`, or less when woken or stopped. */
  sleep(ms: number): Promise<void>;
  wake(): void;
}

export function wakeableSleep(stop: AbortSignal): WakeableSleep {
  let woken = new AbortController();
  return {
    async sleep(ms) {
      try {
        await sleep(ms, undefined, { signal: AbortSignal.any([stop, woken.signal]) });
      } catch {
        // Woken or stopped: either way the loop looks again (and sees that it was stopped).
      } finally {
        if (woken.signal.aborted) woken = new AbortController();
      }
    },
    wake: () => woken.abort(),
  };
}
