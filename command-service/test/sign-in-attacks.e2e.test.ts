// Attacks on password sign-in and sign-up, run as an attacker would run them: concurrent guesses
// against the brute-force limits, a flood of sign-ins that would make everyone else wait, and a
// replayed sign-up. Hashes are held at a gate (GatedHasher) while the attack is in flight, so
// each test looks at what got through at a moment of its choosing instead of timing anything.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import { GatedHasher } from '@eventide/testing/gated-hasher.ts';
import type { Reply } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startTestApp, type TestApp } from './harness.ts';

/** Requests in flight, and those answered so far. */
function inFlight(requests: Promise<Reply>[]) {
  const answered: Reply[] = [];
  for (const request of requests) void request.then((reply) => answered.push(reply));
  return { answered, all: Promise.all(requests) };
}

const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;
const setsSession = (reply: Reply) =>
  reply.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/expires=Thu, 01 Jan 1970/i.test(c));

let addresses = 0;
/** A client address of its own for each attack (the app trusts one proxy hop). */
const newAddress = () => ({ 'X-Forwarded-For': `198.51.100.${++addresses}` });

describe('brute-force limits under concurrency', () => {
  const hasher = new GatedHasher();
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ hasher, env: { TRUST_PROXY_HOPS: '1', SIGNIN_FAILURES_PER_ADDRESS_PER_DAY: '20' } });
  });
  afterEach(() => hasher.release());
  afterAll(() => app.close());

  const signIn = (email: string, password: string, from: Record<string, string>) =>
    app.anonymous().request('POST', '/auth/sign-in', { email, password }, from);

  /** Holds the hashes, sends the burst, and waits until each request is refused or waiting to hash. */
  async function attack(size: number, send: (i: number) => Promise<Reply>) {
    hasher.hold();
    const burst = inFlight(Array.from({ length: size }, (_, i) => send(i)));
    await until(
      () => burst.answered.length + hasher.load.running + hasher.load.waiting === size,
      'every guess to be refused or waiting to hash',
    );
    return burst;
  }

  it('checks no more than 10 of 30 concurrent wrong passwords for one account, and then blocks it', async () => {
    const victim = await signUp(app.anonymous());
    const from = newAddress();
    const burst = await attack(30, (i) => signIn(victim.email, `wrong guess ${i}`, from));
    // While the checked guesses wait to hash, every other one has been refused already.
    expect(hasher.reached).toBeLessThanOrEqual(10);
    expect(burst.answered.every((r) => r.status === 429)).toBe(true);
    hasher.release();
    const replies = await burst.all;
    expect(count(replies, 200)).toBe(0);
    expect(count(replies, 401)).toBeLessThanOrEqual(10);
    expect(count(replies, 401) + count(replies, 429)).toBe(30);
    expect((await signIn(victim.email, victim.password, from)).status).toBe(429);
  });

  it('refuses the right password sent while 29 wrong ones are in flight', async () => {
    const victim = await signUp(app.anonymous());
    const from = newAddress();
    const burst = await attack(29, (i) => signIn(victim.email, `wrong guess ${i}`, from));
    const right = await signIn(victim.email, victim.password, from);
    expect(right.status).toBe(429);
    expect(setsSession(right)).toBe(false);
    expect(right.body.detail).toMatch(/too many failed sign-ins for this account/);
    hasher.release();
    const replies = await burst.all;
    expect(count(replies, 401)).toBeLessThanOrEqual(10);
  });

  it('checks no more than the daily limit of concurrent failures from one address across accounts', async () => {
    const from = newAddress();
    const burst = await attack(30, (i) => signIn(`nobody-${i}-${process.pid}@example.test`, 'a wrong password', from));
    expect(hasher.reached).toBeLessThanOrEqual(20);
    hasher.release();
    const replies = await burst.all;
    expect(count(replies, 401)).toBeLessThanOrEqual(20);
    expect(count(replies, 401) + count(replies, 429)).toBe(30);
    // The address is blocked for the day, for every account.
    const other = await signUp(app.anonymous());
    const blocked = await signIn(other.email, other.password, from);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/from this address today/);
  });

  it('does not let a stolen session guess the current password faster than sign-in does', async () => {
    const victim = app.anonymous();
    const me = await signUp(victim);
    const from = newAddress();
    const replies: Reply[] = [];
    for (let i = 0; i < 11; i++)
      replies.push(await victim.request('PUT', '/auth/password', { currentPassword: `guess ${i}`, password: 'a new passphrase' }, from));
    expect(replies.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(422));
    expect(replies[10]!.status).toBe(429);
    expect((await signIn(me.email, me.password, newAddress())).status).toBe(200);
  });
});

describe('fair hashing', () => {
  const hasher = new GatedHasher({ concurrency: 1 });
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ hasher, env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterEach(() => hasher.release());
  afterAll(() => app.close());

  it('serves a sign-in from another address ahead of the sign-ins one address keeps in flight', async () => {
    const victim = await signUp(app.anonymous());
    const attacker = newAddress();
    hasher.hold();
    const flood = inFlight(
      Array.from({ length: 40 }, (_, i) =>
        app
          .anonymous()
          .request('POST', '/auth/sign-in', { email: `nobody-${i}-${process.pid}@example.test`, password: 'a wrong password' }, attacker),
      ),
    );
    await until(
      () => flood.answered.length + hasher.load.running + hasher.load.waiting === 40,
      'the flood to be refused or waiting to hash',
    );
    // One of the flood hashes, four wait behind it; the rest were turned away at once.
    expect(hasher.load).toEqual({ running: 1, waiting: 4 });
    expect(flood.answered.every((r) => r.status === 429)).toBe(true);

    const victimAddress = newAddress();
    const sent = app.anonymous().request('POST', '/auth/sign-in', { email: victim.email, password: victim.password }, victimAddress);
    await until(() => hasher.load.waiting === 5, 'the victim to wait for a turn');
    hasher.release();
    expect((await sent).status).toBe(200);
    await flood.all;
    // The victim went right after the hash that was running, ahead of the four waiting.
    expect(hasher.started.indexOf(`ip:${victimAddress['X-Forwarded-For']}`)).toBe(1);
  });
});
