import { describe, expect, it } from 'vitest';
import { AppError } from '@eventide/contract/problems.ts';
import { ReadBudget } from './read-budget.ts';

/** A budget on a clock the test moves; each wait moves it on by what was waited. */
function budget(msPerSecond = 100) {
  let now = 0;
  const waits: number[] = [];
  const reads = new ReadBudget(msPerSecond, {
    clock: () => now,
    sleep: async (ms) => {
      waits.push(Math.round(ms));
      now += ms;
    },
  });
  return { reads, waits, pass: (ms: number) => (now += ms) };
}

describe('the read budget', () => {
  it('lets a client spend a second’s worth at once, then makes each read wait its turn', async () => {
    const { reads, waits } = budget(100);
    for (let i = 0; i < 10; i++) await reads.reserve('a', 10);
    expect(waits).toEqual([]);
    await reads.reserve('a', 10);
    // 10 ms short at 100 ms a second: 100 ms.
    expect(waits).toEqual([100]);
  });

  it('charges a dear read after it ran, and the client pays it with waits, or a held 429 past a second', async () => {
    const { reads, waits } = budget(100);
    await reads.reserve('a', 1);
    reads.charge('a', 249);
    // 150 ms owed at 100 ms a second: 1.5 s away, more than a read waits. Held a second, then refused.
    const refused = await reads.reserve('a', 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(429);
    expect((refused as AppError).headers).toEqual({ 'Retry-After': '1' });
    expect(waits).toEqual([1000]);
    // Refused, it spent nothing: now half a second away, it waits that and is served.
    await reads.reserve('a', 1);
    expect(waits).toEqual([1000, 510]);
  });

  it('keeps clients apart, and lets go of a client whose bucket filled up again', async () => {
    const { reads, waits, pass } = budget(100);
    await reads.reserve('greedy', 100);
    reads.charge('greedy', 50);
    await reads.reserve('other', 1);
    expect(waits).toEqual([]);
    expect(reads.clients).toBe(2);
    pass(20_000);
    await reads.reserve('third', 1);
    expect(reads.clients).toBe(1);
  });
});
