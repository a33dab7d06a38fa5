// The heap reducer on a real V8 heap: this thread grows its heap with garbage, goes quiet, and
// the reducer must give back what it grew; and it leaves a busy thread alone.
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { until } from '@eventide/testing/wait.ts';
import { HEAP_REDUCER, shouldReduce, startHeapReducer } from './heap-reducer.ts';

const MiB = 2 ** 20;
const quick = { ...HEAP_REDUCER, checkEveryMs: 50, quietForMs: 200, spacingMs: 0 };

/** A logger whose debug lines are kept, to read the reductions it reports. */
function recordingLogger() {
  const reductions: { beforeMiB: number; afterMiB: number }[] = [];
  const log = createLogger({ level: 'silent' });
  log.debug = ((fields: { beforeMiB: number; afterMiB: number }) => reductions.push(fields)) as typeof log.debug;
  return { log, reductions };
}

/** Some 100 MiB of short-lived objects, held a while so that V8 grows its old generation for them. */
function growHeap(): number {
  let held: unknown[][] = [];
  for (let round = 0; round < 40; round++) {
    held.push(Array.from({ length: 25_000 }, (_, i) => ({ round, i, text: `garbage ${round}-${i}` })));
    if (held.length > 20) held = held.slice(10);
  }
  return held.length;
}

describe('the heap reducer', () => {
  it('reduces only a grown heap, on a thread quiet for long enough, at most once in its spacing', () => {
    const base = { committed: 80 * MiB, lowPoint: 50 * MiB, quietMs: HEAP_REDUCER.quietForMs, watchedMs: 600_000, sinceLastMs: 60_000 };
    expect(shouldReduce(base)).toBe(true);
    expect(shouldReduce({ ...base, committed: 60 * MiB })).toBe(false);
    expect(shouldReduce({ ...base, quietMs: 0 })).toBe(false);
    expect(shouldReduce({ ...base, sinceLastMs: 10_000 })).toBe(false);
    // A lull within a burst: the optimised code a reduction would throw away is still wanted.
    expect(shouldReduce({ ...base, quietMs: HEAP_REDUCER.quietForMs - 1 })).toBe(false);
    // The start's growth, on a thread quiet since it started: nothing warm to lose.
    expect(shouldReduce({ ...base, quietMs: 1_000, watchedMs: 1_000, sinceLastMs: Number.POSITIVE_INFINITY })).toBe(true);
    expect(shouldReduce({ ...base, quietMs: 1_000, watchedMs: 6_000, sinceLastMs: Number.POSITIVE_INFINITY })).toBe(false);
  });

  it('gives back the heap a burst grew, once the thread is quiet', async () => {
    const { log, reductions } = recordingLogger();
    const reducer = startHeapReducer(log, quick);
    try {
      const before = getHeapStatistics().total_heap_size;
      growHeap();
      const grown = getHeapStatistics().total_heap_size;
      expect(grown - before).toBeGreaterThan(quick.growthBytes);
      await until(() => reductions.length > 0, 'a reduction');
      const [reduction] = reductions;
      expect(reduction!.beforeMiB - reduction!.afterMiB).toBeGreaterThan(quick.growthBytes / MiB);
      expect(getHeapStatistics().total_heap_size).toBeLessThan(grown - quick.growthBytes);
    } finally {
      reducer.stop();
    }
  });

  it('leaves a thread whose loop is busy alone, until it is quiet', async () => {
    const { log, reductions } = recordingLogger();
    const reducer = startHeapReducer(log, quick);
    try {
      // Busy in turns, each growing the heap, with a moment between them in which the reducer's
      // check runs and finds the loop busy nearly all the time since the last.
      for (let turn = 0; turn < 8; turn++) {
        growHeap();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(reductions).toEqual([]);
      // What held it back was the busy loop, not a heap too small to be worth it: quiet, it reduces.
      await until(() => reductions.length > 0, 'a reduction once the thread is quiet');
    } finally {
      reducer.stop();
    }
  });
});
