// Attacks on sign-up: replaying someone's sign-up with its Idempotency-Key to get their session,
// racing it, and using sign-up and address changes to learn which addresses have accounts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import { GatedHasher } from '@eventide/testing/gated-hasher.ts';
import type { JsonClient, Reply } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startTestApp, type TestApp } from './harness.ts';

const setsSession = (reply: Reply) =>
  reply.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/expires=Thu, 01 Jan 1970/i.test(c));
let n = 0;
const person = () => ({ name: `Victim ${++n}`, email: `victim-${n}-${process.pid}@example.test` });

describe('replaying a sign-up', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ hasher: new GatedHasher() });
  });
  afterAll(() => app.close());

  const post = (client: JsonClient, key: string, body: object) => client.request('POST', '/users', body, { 'Idempotency-Key': key });
  const sessionOf = async (client: JsonClient) => (await client.request('GET', '/auth/session')).body?.userId as string | undefined;

  it('never signs a stranger in with someone else’s key, name and address, whatever password it sends', async () => {
    const key = randomUUID();
    const who = person();
    const victim = app.anonymous();
    const first = await post(victim, key, { ...who, password: 'the victim’s passphrase' });
    expect(first.status).toBe(201);
    const victimId = first.body.userId as string;

    for (const password of ['any other passphrase', undefined]) {
      const attacker = app.anonymous();
      const replay = await post(attacker, key, { ...who, ...(password ? { password } : {}) });
      expect(replay.status).toBe(422);
      expect(replay.body.type).toBe('/problems/idempotency-key-reused');
      expect(setsSession(replay)).toBe(false);
      expect(replay.text).not.toContain(victimId);
      expect(await sessionOf(attacker)).toBeUndefined();
    }

    // The victim's own retry (an answer lost on the way) still gets the first answer, and a session.
    const retry = app.anonymous();
    const again = await post(retry, key, { ...who, password: 'the victim’s passphrase' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await sessionOf(retry)).toBe(victimId);
  });

  it('shows nobody the result of a sign-up without a password again', async () => {
    const key = randomUUID();
    const who = person();
    const first = await post(app.anonymous(), key, who);
    expect(first.status).toBe(201);
    const replay = await post(app.anonymous(), key, who);
    expect(replay.status).toBe(409);
    expect(replay.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'already used for a sign-up' }]);
    expect(replay.text).not.toContain(first.body.userId);
    expect(setsSession(replay)).toBe(false);
  });

  it('gives a race between two callers with one key to one of them, with that one’s password', async () => {
    const key = randomUUID();
    const who = person();
    const [a, b] = [app.anonymous(), app.anonymous()];
    const replies = await Promise.all([
      post(a, key, { ...who, password: 'passphrase of a' }),
      post(b, key, { ...who, password: 'passphrase of b' }),
    ]);
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect([409, 422]).toContain(statuses[1]);
    const winner = replies[0]!.status === 201 ? 'a' : 'b';
    const signIn = (password: string) => app.anonymous().request('POST', '/auth/sign-in', { email: who.email, password });
    expect((await signIn(`passphrase of ${winner}`)).status).toBe(200);
    expect((await signIn(`passphrase of ${winner === 'a' ? 'b' : 'a'}`)).status).toBe(401);
    expect(await sessionOf(winner === 'a' ? b : a)).toBeUndefined();
  });

  it('is no way around the sign-in limits: guessing the password through replays is counted as sign-ins are', async () => {
    const key = randomUUID();
    const who = person();
    expect((await post(app.anonymous(), key, { ...who, password: 'the victim’s passphrase' })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(app.anonymous(), key, { ...who, password: `guess number ${i}` })).status);
    expect(statuses).toEqual([...Array(10).fill(422), 429]);
  });
});

describe('learning who has an account', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_SIGN_UPS_PER_HOUR: '5', RATE_LIMIT_EMAIL_CHANGES_PER_HOUR: '3', TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => app.close());

  it('answers a sign-up with a taken address with 409 and nothing more, before writing anything', async () => {
    const owner = await signUp(app.anonymous(), { email: `owner-${process.pid}@example.test` });
    const before = await app.eventCount();
    const reply = await app
      .anonymous()
      .request(
        'POST',
        '/users',
        { name: 'Someone', email: owner.email.toUpperCase(), password: 'a long passphrase' },
        { 'X-Forwarded-For': '203.0.113.1' },
      );
    expect(reply.status).toBe(409);
    expect(reply.body.errors).toEqual([{ field: 'email', message: 'is already in use' }]);
    expect(reply.text).not.toContain(owner.userId);
    expect(await app.eventCount()).toBe(before);
  });

  it('counts sign-ups per address before anything else, so a burst learns no more than the limit', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.2' };
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.anonymous().request('POST', '/users', { name: 'Prober', email: `probe-${i}-${process.pid}@example.test` }, from),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body.detail).toMatch(/at most 5 sign-ups from this address/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await app.anonymous().request('POST', '/users', person(), { 'X-Forwarded-For': '203.0.113.3' })).status).toBe(201);
  });

  it('counts a user’s changes to a new address, but not other changes to the profile', async () => {
    const client = app.anonymous();
    const me = await signUp(client);
    const change = (body: object) => client.request('PATCH', `/users/${me.userId}`, body);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await change({ email: `new-${i}-${me.email}` })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await change({ name: 'Still allowed' })).status).toBe(200);
  });
});
