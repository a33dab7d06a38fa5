import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportSlots } from './export-slots.ts';

const WINDOW = 10_000;
const MIN = 1000;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function slots(size = 2) {
  return new ExportSlots({ size, minBytesPerSecond: MIN, windowMs: WINDOW });
}

/** Moves time on a second at a time, each export taking `rates[i]` bytes a second. */
function run(seconds: number, takers: Array<{ sent(bytes: number): void; rate: number }>) {
  for (let s = 0; s < seconds; s++) {
    for (const taker of takers) taker.sent(taker.rate);
    vi.advanceTimersByTime(1000);
  }
}

describe('export slots', () => {
  it('refuses a newcomer while every place is held at the minimum rate or better', () => {
    const pool = slots();
    const cuts: string[] = [];
    const a = pool.take((why) => cuts.push(`a: ${why}`))!;
    const b = pool.take((why) => cuts.push(`b: ${why}`))!;
    run(15, [
      { sent: a.sent, rate: MIN * 2 },
      { sent: b.sent, rate: MIN },
    ]);
    expect(pool.take(() => undefined)).toBeUndefined();
    expect(cuts).toEqual([]);
  });

  it('cuts an export taken below the minimum once it has run a window, and frees its place', () => {
    const pool = slots();
    const cuts: string[] = [];
    const slow = pool.take((why) => cuts.push(why))!;
    run(WINDOW / 1000 - 2, [{ sent: slow.sent, rate: MIN / 2 }]);
    expect(cuts).toEqual([]);
    run(3, [{ sent: slow.sent, rate: MIN / 2 }]);
    expect(cuts).toEqual([expect.stringMatching(/taken at 500 bytes a second over 10 s, below the 1000/)]);
    expect(pool.running).toBe(0);
  });

  it('gives a newcomer the place of a holder that stalled after a burst, never of one above the minimum', () => {
    const pool = slots();
    const cuts: string[] = [];
    const fast = pool.take(() => cuts.push('fast'))!;
    const stalled = pool.take(() => cuts.push('stalled'))!;
    // The stalled one took a burst at first (the buffers filling), then nothing: judged once the
    // burst is out of its window.
    stalled.sent(200_000);
    run(WINDOW / 1000 + 2, [
      { sent: fast.sent, rate: MIN * 3 },
      { sent: stalled.sent, rate: 0 },
    ]);
    const newcomer = pool.take(() => cuts.push('newcomer'));
    expect(newcomer).toBeDefined();
    expect(cuts).toContain('stalled');
    expect(cuts).not.toContain('fast');
  });

  it('a released place is free at once, and releasing twice frees one place', () => {
    const pool = slots(1);
    const only = pool.take(() => undefined)!;
    expect(pool.take(() => undefined)).toBeUndefined();
    only.release();
    only.release();
    expect(pool.running).toBe(0);
    expect(pool.take(() => undefined)).toBeDefined();
    expect(pool.take(() => undefined)).toBeUndefined();
  });
});
