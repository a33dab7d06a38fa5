// Gives the memory a burst of work took back to the machine once the thread is quiet again. V8
// grows its heap with the allocation rate and keeps what it grew: its own memory reducer starts
// only after a full collection that finds the heap grown by a tenth since its last run, so a
// process whose last collection came mid-burst, and that then stands idle and allocates nothing,
// keeps the burst's heap for good. Measured in CI (2026-11-28): after six rounds of abuse the
// main thread held 133 MiB of heap for 65 used, and the process 375 MiB against 198 idle, still
// a minute later. This checks each thread's heap every few seconds and, once it has grown and the
// thread's loop is mostly idle, asks V8 for the collection it makes when the system is low on
// memory (LowMemoryNotification, reached through the in-process inspector: Node has no other
// door to it). That is several full, compacting collections, tens of milliseconds on these heaps:
// it waits for a quiet moment, and for half a minute after the last one, so that a busy thread
// is not paused by it. With it, the same abuse ended at 191-193 MiB (idle 195), and the bench's
// memory after abuse at 0.98 of idle (docs/benchmarks.md).
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
  /** The share of the last check's interval the thread's loop may have been busy for it to count as quiet. */
  quietUtilization: number;
  /** The least time between two reductions. */
  spacingMs: number;
}

export const HEAP_REDUCER: HeapReducerPolicy = {
  checkEveryMs: 5_000,
  growthBytes: 16 * MiB,
  quietUtilization: 0.2,
  spacingMs: 30_000,
};

export interface HeapReading {
  /** The heap V8 holds now (committed), in bytes. */
  committed: number;
  /** The least it held since the last reduction (or since the start). */
  lowPoint: number;
  /** How busy the thread's event loop was since the last reading, 0 to 1. */
  utilization: number;
  /** Milliseconds since the last reduction (or since the start). */
  sinceLastMs: number;
}

/** Whether to reduce now: the heap has grown, the thread is quiet, and the last reduction is long enough ago. */
export function shouldReduce(reading: HeapReading, policy: HeapReducerPolicy = HEAP_REDUCER): boolean {
  return (
    reading.committed - reading.lowPoint >= policy.growthBytes &&
    reading.utilization <= policy.quietUtilization &&
    reading.sinceLastMs >= policy.spacingMs
  );
}

export interface HeapReducer {
  stop(): void;
}

/** Starts watching this thread's heap (each thread runs its own); the timer never keeps the process alive. */
/**
 * A thread's start grows its heap (modules compiled, schemas and routes built, the stores opened)
 * as a burst does, and keeps it as it would keep a burst's: 20 MB of a request thread's at idle.
 * Its first look comes this soon after the start, and counts that growth.
 */
const FIRST_LOOK_MS = 1_000;

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
    if (!shouldReduce({ committed: now, lowPoint, utilization, sinceLastMs: performance.now() - lastAt }, policy)) return;
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
