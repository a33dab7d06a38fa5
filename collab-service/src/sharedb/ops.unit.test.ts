// The per-connection bounds on ops, on vitest's fake clock (rate-limiter-flexible reads Date.now
// and waits with setTimeout): one op at a time at a rate (OpLine), and how much history a
// connection may be caught up by (CatchUpBudget).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatchUpBudget } from './catch-up-budget.ts';
import { OpLine } from './op-line.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Collects what settles, in order, so a test can say what has and has not gone on yet. */
function recorder() {
  const settled: string[] = [];
  const releases = new Map<string, () => void>();
  const enter = (line: OpLine, name: string) =>
    line.enter().then(
      (release) => {
        settled.push(name);
        releases.set(name, release);
      },
      (error: { code?: string }) => void settled.push(`${name}:${error.code}`),
    );
  return { settled, release: (name: string) => releases.get(name)!(), enter };
}

describe('OpLine', () => {
  it('lets one op through at a time, in arrival order', async () => {
    const line = new OpLine({ perSecond: 1000, maxWaiting: 10 });
    const { settled, release, enter } = recorder();
    for (const name of ['a', 'b', 'c']) void enter(line, name);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a']);
    release('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a', 'b']);
    release('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('holds an op over the rate until the next second, and refuses what does not fit in line', async () => {
    const line = new OpLine({ perSecond: 2, maxWaiting: 2 });
    const { settled, release, enter } = recorder();
    await enter(line, 'a');
    release('a');
    await enter(line, 'b');
    release('b');
    // The second's two points are spent: c holds the turn while it waits for the next second.
    for (const name of ['c', 'd', 'e', 'f']) void enter(line, name);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a', 'b', 'f:ERR_RATE_LIMITED']);
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual(['a', 'b', 'f:ERR_RATE_LIMITED', 'c']);
    release('c');
    await vi.advanceTimersByTimeAsync(0);
    expect(settled.at(-1)).toBe('d');
  });

  it('refuses what waits when the connection closes, and lets none of it through', async () => {
    const line = new OpLine({ perSecond: 1000, maxWaiting: 5 });
    const { settled, release, enter } = recorder();
    for (const name of ['a', 'b', 'c']) void enter(line, name);
    await vi.advanceTimersByTimeAsync(0);
    line.close();
    release('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual(['a', 'b:ERR_CONNECTION_ENDED', 'c:ERR_CONNECTION_ENDED']);
  });
});

describe('CatchUpBudget', () => {
  it('spends up to its capacity, refuses past it without spending, and starts again when its window ends', async () => {
    // 100 ops at 60 a minute: a window of 100 seconds.
    const budget = new CatchUpBudget({ capacity: 100, perMinute: 60 });
    expect(await budget.spend(70)).toBe(true);
    expect(await budget.spend(31)).toBe(false);
    expect(await budget.spend(30)).toBe(true);
    expect(await budget.spend(1)).toBe(false);
    expect(await budget.spend(0)).toBe(true);
    await vi.advanceTimersByTimeAsync(99_999);
    expect(await budget.spend(1)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await budget.spend(100)).toBe(true);
  });

  it('lets only one of two requests at once have what only one fits in', async () => {
    const budget = new CatchUpBudget({ capacity: 100, perMinute: 60 });
    const both = await Promise.all([budget.spend(60), budget.spend(60)]);
    expect(both.sort()).toEqual([false, true]);
    expect(await budget.spend(40)).toBe(true);
  });
});
