import { afterEach, describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { memoryLimiters, oneCounterPerName, type LimiterFactory, type LimitSpec } from '@eventide/platform/auth/rate-limit.ts';
import { createCounterTable, tableLimiters } from '@eventide/platform/auth/shared-counters.ts';
import { serveLimiters, threadLimiters } from './limiters.ts';

const spec: LimitSpec = { name: 'search', points: 5, duration: 3600 };
const channels: MessageChannel[] = [];

/** A request thread's limiters, over a port of their own, on the writing thread's `counters`. */
function overAPort(counters: LimiterFactory): LimiterFactory {
  const channel = new MessageChannel();
  channels.push(channel);
  serveLimiters(channel.port1, counters);
  return threadLimiters(channel.port2);
}

afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

const outcome = (limiter: ReturnType<LimiterFactory>, key: string) =>
  limiter.consume(key).then(
    () => 'taken',
    (error: unknown) => (error instanceof RateLimiterRes ? 'refused' : 'failed'),
  );

describe('rate limits counted once across the threads of a process', () => {
  it('gives a budget once, however the requests spread over the writing thread and two request threads', async () => {
    const counters = oneCounterPerName(memoryLimiters());
    const limiters = [counters(spec), overAPort(counters)(spec), overAPort(counters)(spec)];
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(limiters[i % 3]!, 'ip:203.0.113.7')));
    expect(outcomes.filter((o) => o === 'taken')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(25);
    // Another client's budget is its own.
    expect(await outcome(limiters[1]!, 'ip:203.0.113.8')).toBe('taken');
  });

  it('gives a budget once with counters in shared memory, for keys the table holds and for those it has no room for', async () => {
    // One bucket: the first eight keys are counted in the table, the others by the writing thread's overflow.
    const table = createCounterTable(1);
    const writing = tableLimiters(table, oneCounterPerName(memoryLimiters()));
    const requestThread = () => tableLimiters(table, overAPort(writing));
    const limiters = [writing(spec), requestThread()(spec), requestThread()(spec)];
    const keys = Array.from({ length: 12 }, (_, i) => `ip:203.0.113.${i}`);
    // Each key is asked 30 times, by the three threads in turn.
    const asks = Array.from({ length: 12 * 30 }, (_, i) => ({ thread: i % 3, key: keys[Math.floor(i / 3) % 12]! }));
    const outcomes = await Promise.all(asks.map(({ thread, key }) => outcome(limiters[thread]!, key).then((o) => ({ key, o }))));
    for (const key of keys)
      expect(
        outcomes.filter((o) => o.key === key && o.o === 'taken'),
        key,
      ).toHaveLength(5);
  });

  it('answers as a local limiter does: the state when taken, the same refusal when spent', async () => {
    const limiter = overAPort(oneCounterPerName(memoryLimiters()))({ ...spec, points: 2 });
    const first = await limiter.consume('user:1');
    expect(first).toBeInstanceOf(RateLimiterRes);
    expect(first.remainingPoints).toBe(1);
    await limiter.consume('user:1');
    const refusal = await limiter.consume('user:1').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimiterRes);
    expect((refusal as RateLimiterRes).remainingPoints).toBe(0);
    expect((refusal as RateLimiterRes).msBeforeNext).toBeGreaterThan(0);
    expect(await limiter.delete('user:1')).toBe(true);
    expect((await limiter.consume('user:1')).remainingPoints).toBe(1);
  });

  it("passes on a failure of the writing thread's store as an error, not as a refusal", async () => {
    const broken: LimiterFactory = (given) => {
      const limiter = memoryLimiters()(given);
      limiter.consume = () => Promise.reject(new Error('the counters cannot be reached'));
      return limiter;
    };
    const refusal = await overAPort(broken)(spec)
      .consume('ip:203.0.113.7')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toContain('the counters cannot be reached');
  });
});
