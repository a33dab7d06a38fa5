// Rate limits in Redis (REDIS_URL): one budget however many processes spend it at once, and a
// limit that still holds, per process, while Redis is away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { closeRedis, openRedis, type RedisClient } from '@eventide/stores/redis.ts';
import { redisUnavailable, startRedis, type TestRedis } from '@eventide/testing/redis-server.ts';
import { keyBlinder, redisLimiters, spend } from './rate-limit.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const unavailable = redisUnavailable();
/** The deployment's secret, as every process of it has. */
const blind = keyBlinder(Buffer.from('a secret every process shares'));

if (unavailable) {
  console.warn(`SKIPPED: rate limits in Redis: ${unavailable}`);
  describe('rate limits in Redis', () => it.skip(`skipped: ${unavailable}`, () => {}));
} else {
  let redis: TestRedis;
  const clients: RedisClient[] = [];
  /** A client of its own, as each process has. */
  const connect = async () => {
    const client = await openRedis(redis.url, { log, purpose: 'test', failFast: true });
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map(closeRedis));
    await redis?.stop();
  });

  it('grants exactly the limit to concurrent spenders on separate connections', async () => {
    const spec = { name: `concurrent-${Date.now()}`, points: 10, duration: 60 };
    const limiters = await Promise.all([connect(), connect(), connect()]).then((all) => all.map((c) => redisLimiters(c, blind)(spec)));
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => spend(limiters[i % limiters.length]!, 'attacker')));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    // Another key has a budget of its own.
    expect((await spend(limiters[0]!, 'someone else')).ok).toBe(true);
  });

  it('keeps a keyed hash of each key in Redis, never the key (an email, an address)', async () => {
    const client = await connect();
    const limiter = redisLimiters(client, blind)({ name: `blind-${Date.now()}`, points: 5, duration: 60 });
    await spend(limiter, 'victim@example.com|ip:203.0.113.7');
    const keys = await client.keys('eventide:limit:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => /victim|example|203\.0\.113/.test(key))).toEqual([]);
    expect(keys).toContain(`${limiter.keyPrefix}:${blind('victim@example.com|ip:203.0.113.7')}`);
  });

  it('still refuses beyond the limit in each process while Redis is away', async () => {
    const limiter = redisLimiters(await connect(), blind)({ name: `outage-${Date.now()}`, points: 3, duration: 60 });
    await redis.stop({ kill: true });
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(await spend(limiter, 'attacker'));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, false, false]);
  });
}
