// The per-connection bounds on ops, on an injected clock: one op at a time at a rate (OpLine),
// and how much history a connection may be caught up by (CatchUpBudget).
import { describe, expect, it, vi } from 'vitest';
import { CatchUpBudget } from './catch-up-budget.ts';
import { OpLine } from './op-line.ts';

describe('OpLine', () => {
  it('lets one op through at a time, in arrival order', async () => {
    const line = new OpLine({ perSecond: 1000, burst: 10, clock: () => 0 });
    const order: number[] = [];
    const entries = [0, 1, 2].map((i) =>
      line.enter().then((release) => {
        order.push(i);
        return release;
      }),
    );
    const first = await entries[0]!;
    expect(order).toEqual([0]);
    first();
    const second = await entries[1]!;
    expect(order).toEqual([0, 1]);
    second();
    (await entries[2]!)();
  });

  it('holds an op over the rate until its token, and refuses what does not fit in line', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const line = new OpLine({ perSecond: 10, burst: 2, clock: () => now });
      (await line.enter())();
      (await line.enter())();
      let third: (() => void) | undefined;
      void line.enter().then((release) => (third = release));
      void line.enter();
      await expect(line.enter()).rejects.toMatchObject({ code: 'ERR_RATE_LIMITED' });
      expect(third).toBeUndefined();
      now = 100;
      await vi.advanceTimersByTimeAsync(100);
      expect(third).toBeTypeOf('function');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('CatchUpBudget', () => {
  it('spends up to its capacity, refuses past it without spending, and refills by the minute', () => {
    let now = 0;
    const budget = new CatchUpBudget({ capacity: 100, perMinute: 60, clock: () => now });
    expect(budget.spend(70)).toBe(true);
    expect(budget.spend(31)).toBe(false);
    expect(budget.spend(30)).toBe(true);
    expect(budget.spend(1)).toBe(false);
    now = 10_000; // ten seconds: ten ops back
    expect(budget.spend(10)).toBe(true);
    expect(budget.spend(1)).toBe(false);
  });
});
