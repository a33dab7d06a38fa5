// Gives the memory a burst of work took back to the machine once the thread is quiet again. V8
// grows its heap with the allocation rate and keeps what it grew: its own memory reducer starts
// only after a full collection that finds the heap grown by a tenth since its last run, so a
// process whose last collection came mid-burst, and that then stands idle and allocates nothing,
// keeps the burst's heap for good. Measured in CI (2026-11-28): after six rounds of abuse the
// main thread held 133 MiB of heap for 65 used, and the process 375 MiB against 198 idle, still
// a minute later. This checks each thread's heap every few seconds and, once it has grown and the
// thread's loop has been all but idle for half a minute, asks V8 for the collection it makes when
// the system is low on memory (LowMemoryNotification, reached through the in-process inspector:
// Node has no other door to it). With it, the same abuse ended at 191-193 MiB (idle 195), and the
// bench's memory after abuse at 0.98 of idle (docs/benchmarks.md).
//
// A reduction is dear, and most of its price is paid after it: its full collections find the
// objects of the last burst's requests dead, and V8 throws away the optimised code that named
// them ("embedded weak objects cleared": 241 functions after one reduction of `npm start`), so
// the next burst runs on colder code while it is compiled again (2026-11-30, sign-ups on two
// threads: the 5 s after a reduction made 1,980-2,250 a second against 2,870-3,320 before it,
// the writing thread spending 337-413 µs a sign-up against 250-290, and V8's helpers 90-117
// against 28-40). So a lull of a few seconds, which is part of a burst, never earns one: the
// thread must have been quiet for `quietForMs` in a row, and quiet means nearly idle (an idle
// `npm start` keeps each loop 0.2-2.5% busy), not merely lightly loaded. The start's own growth
// is the exception: nothing is warm yet, so it is given back at the first quiet look.
import { Session } from 'node:inspector/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from '@eventide/kernel/log.ts';

const MiB = 2 ** 20;

export interface HeapReducerPolicy {
  /** How often the heap is looked at. */
  checkEveryMs: number;
  /** Growth of the committed heap, above its low point since the last reduction, worth a reduction. */
  growthBytes: number;
  /** The share of a check's interval the thread's loop may have been busy for that interval to count as quiet. */
  quietUtilization: number;
  /** How long the thread must have been quiet in a row: a shorter lull is part of a burst. */
  quietForMs: number;
  /** The least time between two reductions. */
  spacingMs: number;
}

export const HEAP_REDUCER: HeapReducerPolicy = {
  checkEveryMs: 5_000,
  growthBytes: 16 * MiB,
  quietUtilization: 0.05,
  quietForMs: 30_000,
  spacingMs: 30_000,
};

/** The longest a thread that has gone quiet with a grown heap waits for its reduction: what a test of memory coming back allows for. */
export function reductionWithinMs(policy: HeapReducerPolicy = HEAP_REDUCER): number {
  return Math.max(policy.quietForMs, policy.spacingMs) + policy.checkEveryMs;
}

export interface HeapReading {
  /** The heap V8 holds now (committed), in bytes. */
  committed: number;
  /** The least it held since the last reduction (or since the start). */
  lowPoint: number;
  /** How long the thread's loop has been quiet in a row, up to now: 0 when the last interval was busy. */
  quietMs: number;
  /** How long the reducer has watched the thread: since its start. */
  watchedMs: number;
  /** Milliseconds since the last reduction (or since the start). */
  sinceLastMs: number;
}

/**
 * Whether to reduce now: the heap has grown; the thread has been quiet for the policy's time in a
 * row, or ever since it started (its start's growth, with nothing warm to lose); and the last
 * reduction is long enough ago.
 */
export function shouldReduce(reading: HeapReading, policy: HeapReducerPolicy = HEAP_REDUCER): boolean {
  return (
    reading.committed - reading.lowPoint >= policy.growthBytes &&
    reading.quietMs > 0 &&
    reading.quietMs >= Math.min(policy.quietForMs, reading.watchedMs) &&
    reading.sinceLastMs >= policy.spacingMs
  );
}

export interface HeapReducer {
  stop(): void;
}

/**
 * A thread's start grows its heap (modules compiled, schemas and routes built, the stores opened)
 * as a burst does, and keeps it as it would keep a burst's: 20 MB of a request thread's at idle.
 * Its first look comes this soon after the start, and counts that growth.
 */
const FIRST_LOOK_MS = 1_000;

/** Starts watching this thread's heap (each thread runs its own); the timer never keeps the process alive. */
export function startHeapReducer(log: Logger, policy: HeapReducerPolicy = HEAP_REDUCER): HeapReducer {
  if (!process.features.inspector) {
    log.info('heap reducer: this Node has no inspector, so memory a burst took is given back only as V8 sees fit');
    return { stop() {} };
  }
  const committed = () => getHeapStatistics().total_heap_size;
  // What the start grew counts: the low point is taken from the first look on.
  let lowPoint = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  let loop: EventLoopUtilization = performance.eventLoopUtilization();
  const watchedFrom = performance.now();
  let lookedAt = watchedFrom;
  /** Since when the loop has been quiet in a row; undefined while the last interval was busy. */
  let quietSince: number | undefined = watchedFrom;
  let reducing = false;

  async function reduce(before: number): Promise<void> {
    const started = performance.now();
    const session = new Session();
    session.connect();
    try {
      await session.post('HeapProfiler.collectGarbage');
    } finally {
      session.disconnect();
    }
    lowPoint = committed();
    lastAt = performance.now();
    log.debug(
      { beforeMiB: Math.round(before / MiB), afterMiB: Math.round(lowPoint / MiB), ms: Math.round(lastAt - started) },
      'heap reducer: gave back memory the heap no longer used',
    );
  }

  const look = () => {
    if (reducing) return;
    const now = committed();
    lowPoint = Math.min(lowPoint, now);
    const utilization = performance.eventLoopUtilization(loop).utilization;
    loop = performance.eventLoopUtilization();
    const at = performance.now();
    if (utilization > policy.quietUtilization) quietSince = undefined;
    else quietSince ??= lookedAt;
    lookedAt = at;
    const reading = {
      committed: now,
      lowPoint,
      quietMs: quietSince === undefined ? 0 : at - quietSince,
      watchedMs: at - watchedFrom,
      sinceLastMs: at - lastAt,
    };
    if (!shouldReduce(reading, policy)) return;
    reducing = true;
    reduce(now)
      .catch((error: unknown) => log.warn({ err: error }, 'heap reducer: the collection could not be asked for'))
      .finally(() => {
        reducing = false;
      });
  };
  let timer = setTimeout(
    () => {
      look();
      timer = setInterval(look, policy.checkEveryMs);
      timer.unref();
    },
    Math.min(FIRST_LOOK_MS, policy.checkEveryMs),
  );
  timer.unref();
  return { stop: () => clearTimeout(timer) };
}
