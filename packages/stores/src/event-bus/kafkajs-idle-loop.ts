// kafkajs 2.2.4 keeps the request queue of every broker connection checking itself once a
// millisecond for as long as the connection is open, whether or not a request waits. After each
// response it schedules a check for when client-side throttling ends; with no throttling that
// moment is in the past, Node runs the timer after 1 ms (and on Node 24 prints a
// TimeoutNegativeWarning), and that check schedules the next. Upstream: tulios/kafkajs#1704 and
// #1751; the fixes proposed (#1755, #1768) are not released. Measured in a process with one bus
// subscribed and idle on the mock cluster: 4,334 checks and 65 ms of CPU a second, 1 and 10 with
// the replacement below.
//
// A check can only send a request that waits, so the replacement schedules one only while a
// request waits: push() schedules one when it queues a request, and a check that leaves requests
// waiting (throttled, or too many in flight) schedules the next, at the end of the throttling or
// after kafkajs's own 10 ms, as before.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The kafkajs releases with the loop; another release is left as it is (a test names the one installed). */
const AFFECTED_VERSIONS = new Set(['2.2.4']);
/** kafkajs's CHECK_PENDING_REQUESTS_INTERVAL: how soon a queue full of requests in flight looks again. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/** The fields of kafkajs's RequestQueue that its scheduling reads. */
interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
}

function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledFor = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS,
  );
}

/** Replaces the installed kafkajs's scheduling where it has the loop; whether it did. Safe to call again. */
export function stopIdleRequestQueueLoop(): boolean {
  const { version } = require('kafkajs/package.json') as { version: string };
  if (!AFFECTED_VERSIONS.has(version)) return false;
  const queue = require('kafkajs/src/network/requestQueue/index.js') as { prototype: Record<string, unknown> };
  queue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}
