// The smaller holes of issue 44 (case 7), against the real process as `npm start` runs it: each
// was reproduced there, and each is checked there. The oversized chunked body, the data files'
// modes and the memory after connection floods have files of their own (bodies, data-files,
// connections).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { redisUnavailable, startRedis, type TestRedis } from '@eventide/testing/redis-server.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { closeRedis, openRedis } from '@eventide/stores/redis.ts';
import { startTarget, type HostileTarget } from './service.ts';

let target: HostileTarget;

beforeAll(async () => {
  target = await startTarget();
});
afterAll(() => target?.close());

describe('small holes, closed', () => {
  it('refuses an empty or blank Idempotency-Key with a 400 naming it, and writes nothing', async () => {
    const admin = await target.admin();
    const price = { amount: 100, currency: 'EUR' };
    for (const key of ['', '   ', '\t']) {
      const replies = await Promise.all(
        [1, 2].map(() => admin.request('POST', '/products', { name: 'Refused twice', price }, { 'Idempotency-Key': key })),
      );
      for (const reply of replies) {
        expect(reply.status, JSON.stringify(key)).toBe(400);
        expect(reply.body.errors[0].field).toBe('Idempotency-Key');
      }
    }
    // A write after them, once read back, shows that the read models passed any write of theirs.
    const after = await admin.request('POST', '/products', { name: 'Written after', price }, { 'Idempotency-Key': crypto.randomUUID() });
    expect(after.status).toBe(201);
    await until(async () => (await admin.request('GET', `/products/${after.body.productId}`)).status === 200, 'the later product');
    const listed = await admin.request('GET', '/products?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((p: { name: string }) => p.name)).not.toContain('Refused twice');
  });

  it('cannot be framed: /docs and the web app (with its editor) forbid every frame ancestor', async () => {
    for (const path of ['/docs', '/']) {
      const reply = await fetch(`${target.url}${path}`);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('tells the public /health only that it answers, and /health/ready only whether each check passes', async () => {
    const reply = await fetch(`${target.url}/health`);
    expect(await reply.json()).toEqual({ status: 'ok' });
    const ready = (await (await fetch(`${target.url}/health/ready`)).json()) as { checks: Record<string, unknown> };
    for (const check of Object.values(ready.checks)) expect(check).toEqual({ status: 'pass' });
    // An admin (the operations console) reads what each observed.
    const admin = await target.admin();
    expect((await admin.request('GET', '/health/ready')).body.checks.eventStore).toMatchObject({ observedValue: expect.any(Number) });
  });

  it('takes its own origin from the Host, not from an X-Forwarded-Host a client forges through a proxy that passes it on', async () => {
    const browser = jsonClient(target.url);
    const me = await signUp(browser);
    const forged = { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };
    expect((await browser.request('PATCH', `/users/${me.userId}`, { name: 'Evil' }, forged)).status).toBe(403);
    const own = { Origin: target.url, 'X-Forwarded-Host': 'evil.example' };
    expect((await browser.request('PATCH', `/users/${me.userId}`, { name: 'Own' }, own)).status).toBe(200);
  });
});

const noRedis = redisUnavailable();
describe.skipIf(noRedis)('rate-limit keys in Redis', () => {
  let redis: TestRedis;
  let onRedis: HostileTarget;

  beforeAll(async () => {
    redis = await startRedis();
    onRedis = await startTarget({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await onRedis?.close();
    await redis?.stop();
  });

  it('hold no email address or client address in clear', async () => {
    const person = jsonClient(onRedis.url);
    const { email } = await signUp(person);
    const stranger = jsonClient(onRedis.url);
    const refused = await stranger.request(
      'POST',
      '/auth/sign-in',
      { email, password: 'not their password' },
      { 'X-Forwarded-For': '203.0.113.77' },
    );
    expect(refused.status).toBe(401);
    const client = await openRedis(redis.url, { log: createLogger({ level: 'silent' }), purpose: 'test', failFast: true });
    try {
      const keys = await client.keys('eventide:limit:*');
      expect(keys.length).toBeGreaterThan(0);
      const text = keys.join('\n');
      expect(text).not.toContain(email);
      expect(text).not.toContain(email.split('@')[0]);
      expect(text).not.toContain('203.0.113.77');
    } finally {
      await closeRedis(client);
    }
  });
});
if (noRedis) console.warn(`SKIPPED: rate-limit keys in Redis, on the real process: ${noRedis}`);
