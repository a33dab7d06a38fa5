// Every limit with a long window, raced against the real process: a burst far over the limit,
// all sent at once, gets through no more than the limit, whatever the interleaving. (Per-second
// limits use the same counting; their windows are too short to race without timing.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { jsonClient, type Reply } from '@eventide/testing/json-client.ts';
import { startTarget, type HostileTarget } from './service.ts';

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget({
    RATE_LIMIT_SIGN_UPS_PER_HOUR: '5',
    RATE_LIMIT_EMAIL_CHANGES_PER_HOUR: '3',
    SIGNIN_FAILURES_PER_ACCOUNT: '10',
    SIGNIN_FAILURES_PER_ADDRESS_PER_DAY: '20',
  });
});
afterAll(() => target?.close());

let addresses = 0;
const from = () => ({ 'X-Forwarded-For': `192.0.2.${++addresses}` });
const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;
const burst = (size: number, send: (i: number) => Promise<Reply>) => Promise.all(Array.from({ length: size }, (_, i) => send(i)));

/** A user signed up (and signed in) from an address of its own, so as not to spend another test's limit. */
async function someone() {
  const client = jsonClient(target.url);
  const email = `someone-${++addresses}@example.test`;
  const password = 'a long passphrase';
  const reply = await client.request('POST', '/users', { name: 'Someone', email, password }, from());
  if (reply.status !== 201) throw new Error(`sign-up failed: ${reply.status}`);
  return { client, userId: reply.body.userId as string, email, password };
}

describe('limits raced by concurrent bursts', { timeout: 120_000 }, () => {
  it('sign-in: no more than 10 wrong passwords checked for one account from one address', async () => {
    const victim = await someone();
    const address = from();
    const replies = await burst(40, (i) =>
      jsonClient(target.url).request('POST', '/auth/sign-in', { email: victim.email, password: `guess ${i}` }, address),
    );
    expect(count(replies, 401)).toBeLessThanOrEqual(10);
    expect(count(replies, 401) + count(replies, 429)).toBe(40);
  });

  it('sign-in: no more than the daily number of failures checked from one address across accounts', async () => {
    const address = from();
    const replies = await burst(40, (i) =>
      jsonClient(target.url).request('POST', '/auth/sign-in', { email: `nobody-${i}@example.test`, password: 'a wrong password' }, address),
    );
    expect(count(replies, 401)).toBeLessThanOrEqual(20);
    expect(count(replies, 401) + count(replies, 429)).toBe(40);
  });

  it('sign-up: no more than 5 an hour from one address, taken addresses included', async () => {
    const address = from();
    const replies = await burst(30, (i) =>
      jsonClient(target.url).request('POST', '/users', { name: 'Burst', email: `burst-${i}-${addresses}@example.test` }, address),
    );
    expect(count(replies, 201)).toBe(5);
    expect(count(replies, 429)).toBe(25);
  });

  it('email changes: no more than 3 new addresses an hour for one user', async () => {
    const me = await someone();
    const replies = await burst(20, (i) => me.client.request('PATCH', `/users/${me.userId}`, { email: `moved-${i}-${me.email}` }));
    // Changes to one user race on its stream too (409); none gets past the limit.
    expect(count(replies, 200)).toBeLessThanOrEqual(3);
    expect(count(replies, 429)).toBeGreaterThanOrEqual(17);
  });

  it('collab: no more than 8 connections for one user, however many open at once', async () => {
    const me = await someone();
    const opened: RawClient[] = [];
    try {
      const attempts = await Promise.allSettled(Array.from({ length: 30 }, () => rawClient(target.url, me.client.cookieHeader())));
      for (const attempt of attempts) if (attempt.status === 'fulfilled') opened.push(attempt.value);
      expect(opened).toHaveLength(8);
      expect(attempts.filter((a) => a.status === 'rejected').every((a) => (a as PromiseRejectedResult).reason.status === 429)).toBe(true);
    } finally {
      for (const client of opened) client.socket.close();
    }
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
