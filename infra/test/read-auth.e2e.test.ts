// Who may read what, and the per-client rate limits of the read side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '@eventide/testing/sign-in.ts';
import type { Reply } from '@eventide/testing/json-client.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  // One proxy in front: X-Forwarded-For tells clients apart.
  app = await startFullApp({ env: { TRUST_PROXY_HOPS: '1' } });
});
afterAll(() => app.close());

describe('reads', () => {
  it('shows a user their own profile and orders, and nobody else’s; admins see all', async () => {
    const alice = app.anonymous();
    const a = await signUp(alice);
    const bob = app.anonymous();
    const b = await signUp(bob);
    const order = await alice.request('POST', '/orders', { userId: a.userId, lines: [] });
    const position = order.headers.get('event-position')!;
    const wait = { 'Wait-For-Position': position };

    expect((await alice.request('GET', `/users/${a.userId}`, undefined, wait)).status).toBe(200);
    expect((await bob.request('GET', `/users/${a.userId}`, undefined, wait)).status).toBe(404);
    expect((await app.anonymous().request('GET', `/users/${a.userId}`)).status).toBe(401);
    expect((await bob.request('GET', '/users')).status).toBe(403);
    expect((await app.request('GET', `/users/${a.userId}`, undefined, wait)).status).toBe(200);

    expect((await alice.request('GET', `/orders/${order.body.orderId}`, undefined, wait)).status).toBe(200);
    expect((await bob.request('GET', `/orders/${order.body.orderId}`, undefined, wait)).status).toBe(404);
    const bobsList = await bob.request('GET', '/orders', undefined, wait);
    expect(bobsList.body.items).toEqual([]);
    const peek = await bob.request('GET', `/orders?userId=${a.userId}`, undefined, wait);
    expect(peek.body).toMatchObject({ items: [], total: 0 });
    const alicesList = await alice.request('GET', '/orders', undefined, wait);
    expect(alicesList.body.items.map((o: { orderId: string }) => o.orderId)).toEqual([order.body.orderId]);
    expect((await app.request('GET', `/orders?userId=${a.userId}`, undefined, wait)).body.total).toBe(1);
    expect(b.userId).not.toBe(a.userId);
  });

  it('keeps the event stream for admins', async () => {
    const user = app.anonymous();
    await signUp(user);
    expect((await app.anonymous().request('GET', '/events')).status).toBe(401);
    expect((await user.request('GET', '/events')).status).toBe(403);
  });
});

describe('rate limits', () => {
  /** Searches until one is refused (at most 200 tries): the refusal, and how many passed before it. */
  async function searchUntilRefused(send: () => Promise<Reply>) {
    for (let passed = 0; passed < 200; passed++) {
      const reply = await send();
      if (reply.status === 429) return { reply, passed };
      expect(reply.status).toBe(200);
    }
    throw new Error('200 searches in a row were all answered');
  }

  it('answers search beyond 10 a second from one client with 429, while another client is unaffected', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const { reply: refused, passed } = await searchUntilRefused(() =>
      app.anonymous().request('GET', '/search?q=lamp', undefined, from('203.0.113.7')),
    );
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    const other = await app.anonymous().request('GET', '/search?q=lamp', undefined, from('198.51.100.9'));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-limit')).toBe('10');
    expect(Number(other.headers.get('ratelimit-remaining'))).toBe(9);
  });

  it('counts a signed-in client by its user, wherever it comes from', async () => {
    const user = app.anonymous();
    await signUp(user);
    let i = 0;
    const { passed } = await searchUntilRefused(() =>
      user.request('GET', '/search?q=lamp', undefined, { 'X-Forwarded-For': `192.0.2.${++i}` }),
    );
    expect(passed).toBeGreaterThanOrEqual(10);
  });
});
