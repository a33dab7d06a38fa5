// Appends committed on one thread wake the live subscriptions that follow the same file on the
// other threads of the process: `npm start` runs the followers (projector, publisher, forgetter)
// on a thread of their own (projector/src/thread.ts), and without this they would learn of each
// append only at their next poll. Other processes are not reached this way; they poll.
import { resolve } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';

export interface CrossThreadWake {
  /** Tells the other threads' stores on this file that something was committed. */
  announce(): void;
  close(): void;
}

/** A channel per file (its absolute path): `wake` runs when another thread's store on it committed. */
export function crossThreadWake(path: string, wake: () => void): CrossThreadWake {
  if (path === ':memory:') return { announce() {}, close() {} };
  const channel = new BroadcastChannel(`eventide:appended:${resolve(path)}`);
  channel.onmessage = wake;
  // A store that only listens must not keep its thread alive: its subscriptions' own timers do.
  channel.unref();
  return {
    announce: () => channel.postMessage(null),
    close: () => channel.close(),
  };
}
