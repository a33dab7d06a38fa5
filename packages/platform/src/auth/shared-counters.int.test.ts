// Counters in shared memory: the same answers as rate-limiter-flexible's memory limiter, whatever
// the table's size; one budget however many threads spend it at once; and a table filled by an
// attacker neither frees a blocked key nor refuses a new one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createCounterTable, tableLimiters, type CounterTable } from './shared-counters.ts';
import { memoryLimiters, oneCounterPerName, spend, type LimitSpec } from './rate-limit.ts';

/** The writing thread's limiters: counting in `table`, and in memory limiters of their own for keys it has no room for. */
const writingThreads = (table: CounterTable) => tableLimiters(table, oneCounterPerName(memoryLimiters()));

/** What a limiter answered, in a form two limiters' answers can be compared in. */
async function answer(work: Promise<unknown>): Promise<unknown> {
  const seen = (outcome: string, res: unknown) =>
    res instanceof RateLimiterRes
      ? {
          outcome,
          remaining: res.remainingPoints,
          consumed: res.consumedPoints,
          msBeforeNext: res.msBeforeNext,
          first: res.isFirstInDuration,
        }
      : { outcome, res };
  return work.then(
    (res) => seen('resolved', res),
    (error: unknown) => seen('rejected', error),
  );
}

type Op =
  | { op: 'consume' | 'penalty' | 'reward'; key: number; points: number }
  | { op: 'get' | 'delete'; key: number }
  | { op: 'wait'; ms: number };

const ops = (keys: number) =>
  fc.array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({ op: fc.constant('consume' as const), key: fc.nat(keys - 1), points: fc.integer({ min: 1, max: 3 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          op: fc.constantFrom('penalty' as const, 'reward' as const),
          key: fc.nat(keys - 1),
          points: fc.integer({ min: 1, max: 3 }),
        }),
      },
      { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), key: fc.nat(keys - 1) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 4_000 }) }) },
    ),
    { maxLength: 120 },
  );
const specs = fc.record({
  name: fc.constantFrom('search', 'sign-in-account'),
  points: fc.integer({ min: 1, max: 6 }),
  duration: fc.integer({ min: 1, max: 5 }),
  blockDuration: fc.integer({ min: 0, max: 8 }),
});

async function apply(limiter: RateLimiterAbstract, step: Op): Promise<unknown> {
  if (step.op === 'wait') return vi.advanceTimersByTimeAsync(step.ms);
  const key = `ip:203.0.113.${step.key}`;
  switch (step.op) {
    case 'get':
    case 'delete':
      return answer(limiter[step.op](key));
    default:
      return answer(limiter[step.op](key, step.points));
  }
}

describe('counters in shared memory', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const [size, buckets, keys] of [
    ['a table with room for every key', 1_024, 6],
    ['a table of one bucket, full most of the time (its overflow counts the rest)', 1, 24],
  ] as const) {
    it(`answers every sequence of operations as the memory limiter does: ${size}`, async () => {
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
      await fc.assert(
        fc.asyncProperty(specs, ops(keys), async (spec: LimitSpec, steps: Op[]) => {
          const theirs = new RateLimiterMemory({
            keyPrefix: spec.name,
            points: spec.points,
            duration: spec.duration,
            blockDuration: spec.blockDuration!,
          });
          // Two threads' limiters on one table, taking turns: together they must be one limiter.
          const table = createCounterTable(buckets);
          const writing = writingThreads(table);
          const ours = [writing(spec), tableLimiters(table, writing)(spec)];
          for (const [index, step] of steps.entries()) {
            expect(await apply(ours[index % 2]!, step), `step ${index}: ${JSON.stringify(step)}`).toEqual(await apply(theirs, step));
          }
        }),
        { numRuns: 300, seed: 20261130 },
      );
    });
  }

  it('never frees a blocked key, however many keys fill its bucket, and refuses none of them', async () => {
    const spec: LimitSpec = { name: 'sign-in-account', points: 3, duration: 86_400, blockDuration: 900 };
    const limiter = writingThreads(createCounterTable(1))(spec);
    for (let i = 0; i < 4; i++) await spend(limiter, 'victim@example.com|ip:198.51.100.9');
    const flood = await Promise.all(Array.from({ length: 5_000 }, (_, i) => spend(limiter, `attacker-${i}@example.com|ip:203.0.113.7`)));
    expect(flood.filter((spent) => !spent.ok)).toEqual([]);
    const after = await spend(limiter, 'victim@example.com|ip:198.51.100.9');
    expect(after.ok).toBe(false);
    expect(after.res.msBeforeNext).toBeGreaterThan(800_000);
    // And each flooding key's budget is still counted once: a second round spends its second point.
    expect((await spend(limiter, 'attacker-4999@example.com|ip:203.0.113.7')).res.consumedPoints).toBe(2);
  });

  it('counts a key that overflowed in one place, though room is made in its bucket before it comes back', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const table = createCounterTable(1);
    const short = writingThreads(table)({ name: 'short', points: 100, duration: 1 });
    const long = writingThreads(table)({ name: 'search', points: 3, duration: 60 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => short.consume(`filler-${i}`)));
    // The bucket is full: this key is counted by the overflow.
    await long.consume('ip:203.0.113.7', 3);
    await vi.advanceTimersByTimeAsync(1_000);
    // The fillers ran out, so the bucket has room; the key's spent budget must still be found.
    expect((await spend(long, 'ip:203.0.113.7')).ok).toBe(false);
    expect(await long.get('ip:203.0.113.7')).toMatchObject({ consumedPoints: 4 });
    await vi.advanceTimersByTimeAsync(60_000);
    // Its window over, it starts again in the table's room.
    expect((await spend(long, 'ip:203.0.113.7')).res).toMatchObject({ consumedPoints: 1, isFirstInDuration: true });
  });

  it('gives a budget once to threads spending it at the same moment', async () => {
    const table = createCounterTable();
    const spec: LimitSpec = { name: 'search', points: 20_000, duration: 3_600 };
    // Each thread spends 10,000 points one at a time, as fast as it can, on the same key.
    const source = `
      import { workerData, parentPort } from 'node:worker_threads';
      const { tableLimiters } = await import(${JSON.stringify(new URL('./shared-counters.ts', import.meta.url).href)});
      const limiter = tableLimiters(workerData.table, () => ({ consume: () => { throw new Error('no overflow expected'); } }))(workerData.spec);
      let taken = 0;
      for (let i = 0; i < 10_000; i++) await limiter.consume('ip:203.0.113.7').then(() => taken++, () => {});
      parentPort.postMessage(taken);
    `;
    const takenByEach = await Promise.all(
      Array.from({ length: 3 }, () => {
        const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: { table, spec } });
        return new Promise<number>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }).finally(() => worker.terminate());
      }),
    );
    expect(takenByEach.reduce((sum, taken) => sum + taken, 0)).toBe(20_000);
    expect((await writingThreads(table)(spec).get('ip:203.0.113.7'))?.consumedPoints).toBe(30_000);
  });

  it('takes a lock whose holder ended inside it, rather than wait for it for ever', async () => {
    const table = createCounterTable(1);
    // The first bucket's lock word, held by nobody who will let it go.
    Atomics.store(new Int32Array(table.buffer), 0, 2);
    expect((await spend(writingThreads(table)({ name: 'search', points: 2, duration: 60 }), 'ip:203.0.113.7')).ok).toBe(true);
  });
});
