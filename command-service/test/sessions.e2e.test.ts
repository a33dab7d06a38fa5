// Password accounts and sessions: sign-up, sign-in, sign-out, timeouts, refresh, brute force,
// who may write what, and the Origin check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@eventide/platform/auth/password.ts';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { startTestApp, type TestApp } from './harness.ts';

const MINUTE = 60_000;
let now = Date.now();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    clock: () => now,
    env: { SESSION_IDLE_SECONDS: '1800', SESSION_ABSOLUTE_SECONDS: '43200', SIGNIN_BLOCK_SECONDS: '1' },
  });
});
afterAll(() => app.close());

const sessionIdOf = (cookies: string) => new RegExp(`(?:^|; )${SESSION_COOKIE.replace('.', '\\.')}=([^;]+)`).exec(cookies)?.[1];

describe('password accounts', () => {
  it('signs a new user in at sign-up, and never answers with the password or its hash', async () => {
    const browser = app.anonymous();
    const reply = await browser.request('POST', '/users', {
      name: 'Pat',
      email: `pat-${process.pid}@example.test`,
      password: 'correct horse battery',
    });
    expect(reply.status).toBe(201);
    expect(reply.text).not.toMatch(/password|scrypt|correct horse/);
    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    expect(cookie).not.toMatch(/; secure/i); // plain http here; Secure whenever served over https
    const session = await browser.request('GET', '/auth/session');
    expect(session.body).toMatchObject({ userId: reply.body.userId, roles: [], signInMethods: { password: true, providers: [] } });
  });

  it('keeps the hash in the private account stream only, never in user:created', async () => {
    const browser = app.anonymous();
    const me = await signUp(browser);
    const [created] = await app.store.readStream(`user-${me.userId}`);
    expect(JSON.stringify(created)).not.toMatch(/scrypt|passphrase/);
    const [account] = await app.store.readStream(`account-${me.userId}`);
    expect(account).toMatchObject({ type: 'account:password-set', data: { hash: expect.stringMatching(/^\$scrypt\$ln=17,r=8,p=1\$/) } });
  });

  it('checks the password and says the same for an unknown email as for a wrong password', async () => {
    const me = await signUp(app.anonymous());
    const wrong = await app.anonymous().request('POST', '/auth/sign-in', { email: me.email, password: 'not the password' });
    const unknown = await app.anonymous().request('POST', '/auth/sign-in', { email: `nobody-${me.email}`, password: 'whatever it is' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toBe(wrong.body.detail);
    const right = app.anonymous();
    await signInWithPassword(right, me.email.toUpperCase(), me.password);
    expect((await right.request('GET', '/auth/session')).body.userId).toBe(me.userId);
  });

  it('replaces a hash made under older parameters at the next sign-in', async () => {
    const me = await signUp(app.anonymous());
    const old = await hashPassword(me.password, { logN: 14, r: 8, p: 1 });
    const revision = (await app.store.readStream(`account-${me.userId}`)).length - 1;
    await app.store.append(
      `account-${me.userId}`,
      [
        {
          id: crypto.randomUUID(),
          type: 'account:password-set',
          data: { hash: old },
          metadata: { correlationId: 't', causationId: 't', actor: { type: 'system', name: 'test' } },
        },
      ],
      { expectedRevision: revision },
    );
    await signInWithPassword(app.anonymous(), me.email, me.password);
    const latest = (await app.store.readStream(`account-${me.userId}`)).at(-1)!;
    expect((latest.data as { hash: string }).hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    // and the new hash still signs in
    await signInWithPassword(app.anonymous(), me.email, me.password);
  });

  it('validates the body of a sign-in and of a sign-up password', async () => {
    const tooShort = await app
      .anonymous()
      .request('POST', '/users', { name: 'Short', email: `short-${process.pid}@example.test`, password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors[0].field).toBe('password');
    const missing = await app.anonymous().request('POST', '/auth/sign-in', { email: 'a@example.test' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('password');
  });
});

describe('sessions', () => {
  it('gives a new session id at every sign-in', async () => {
    const browser = app.anonymous();
    const me = await signUp(browser);
    const first = sessionIdOf(browser.cookieHeader());
    await signInWithPassword(browser, me.email, me.password);
    const second = sessionIdOf(browser.cookieHeader());
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // the old id no longer signs anyone in
    const old = app.anonymous();
    old.setCookies(browser.cookieHeader().replace(second!, first!));
    expect((await old.request('GET', '/auth/session')).status).toBe(401);
  });

  it('refuses a cookie copied before sign-out once the user has signed out', async () => {
    const browser = app.anonymous();
    await signUp(browser);
    const copy = app.anonymous();
    copy.setCookies(browser.cookieHeader());
    expect((await copy.request('GET', '/auth/session')).status).toBe(200);
    expect((await browser.request('POST', '/auth/sign-out')).status).toBe(204);
    expect((await copy.request('GET', '/auth/session')).status).toBe(401);
    expect((await copy.request('POST', '/orders', { userId: crypto.randomUUID(), lines: [] })).status).toBe(401);
  });

  it('refreshes the cookie while the session is used, and ends it after the idle timeout', async () => {
    const browser = app.anonymous();
    await signUp(browser);
    now += 2 * MINUTE;
    const used = await browser.request('GET', '/auth/session');
    expect(used.status).toBe(200);
    expect(used.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
    expect(Date.parse(used.body.expiresAt)).toBe(now + 30 * MINUTE);
    now += 31 * MINUTE;
    expect((await browser.request('GET', '/auth/session')).status).toBe(401);
  });

  it('ends a session at its absolute timeout even while it is in use', async () => {
    const browser = app.anonymous();
    await signUp(browser);
    for (let hour = 0; hour < 12; hour++) {
      now += 20 * MINUTE;
      expect((await browser.request('GET', '/auth/session')).status, `after ${hour + 1} steps`).toBe(200);
      now += 20 * MINUTE;
      expect((await browser.request('GET', '/auth/session')).status).toBe(200);
      now += 20 * MINUTE;
      if (hour < 11) expect((await browser.request('GET', '/auth/session')).status).toBe(200);
    }
    // 12 hours after sign-in, never idle for more than 20 minutes
    expect((await browser.request('GET', '/auth/session')).status).toBe(401);
  });
});

describe('brute force', () => {
  it('refuses the 11th wrong password for one account from one address with 429, even with the right one, until the block ends', async () => {
    const me = await signUp(app.anonymous());
    const attempt = (password: string, headers: Record<string, string> = {}) =>
      app.anonymous().request('POST', '/auth/sign-in', { email: me.email, password }, headers);
    for (let i = 1; i <= 10; i++) expect((await attempt(`wrong ${i}`)).status, `attempt ${i}`).toBe(401);
    // X-Forwarded-For is not trusted unless TRUST_PROXY_HOPS says so: it cannot dodge the block.
    const blocked = await attempt(me.password, { 'X-Forwarded-For': '198.51.100.1' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.headers.get('ratelimit-limit')).toBe('10');
    expect(blocked.headers.get('ratelimit-remaining')).toBe('0');
    // Another account from the same address is not affected.
    const other = await signUp(app.anonymous());
    expect((await app.anonymous().request('POST', '/auth/sign-in', { email: other.email, password: other.password })).status).toBe(200);
    // Once the block (1 s here) ends, the right password works.
    let status = 429;
    await until(
      async () => {
        status = (await attempt(me.password)).status;
        return status !== 429;
      },
      'the block to end',
      10_000,
    );
    expect(status).toBe(200);
  });

  it('counts consecutive failures only: a success resets the count', async () => {
    const me = await signUp(app.anonymous());
    const attempt = (password: string) => app.anonymous().request('POST', '/auth/sign-in', { email: me.email, password });
    for (let i = 1; i <= 9; i++) expect((await attempt(`wrong ${i}`)).status).toBe(401);
    expect((await attempt(me.password)).status).toBe(200);
    for (let i = 1; i <= 9; i++) expect((await attempt(`wrong again ${i}`)).status).toBe(401);
    expect((await attempt(me.password)).status).toBe(200);
  });
});

describe('authorization', () => {
  // The clock has moved on by hours in the tests above: the harness's admin signs in again.
  beforeAll(() => signInWithPassword(app as unknown as JsonClient, app.admin.email, app.admin.password));

  it('needs a session to write, and a signed-in user changes only their own profile and orders', async () => {
    const alice = app.anonymous();
    const a = await signUp(alice);
    const bob = app.anonymous();
    const b = await signUp(bob);

    expect((await app.anonymous().request('PATCH', `/users/${a.userId}`, { name: 'X' })).status).toBe(401);
    expect((await alice.request('PATCH', `/users/${a.userId}`, { name: 'Alice' })).status).toBe(200);
    // someone else's profile answers as a missing one would
    const foreign = await bob.request('PATCH', `/users/${a.userId}`, { name: 'Mallory' });
    const missing = await bob.request('PATCH', `/users/${crypto.randomUUID()}`, { name: 'Mallory' });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await bob.request('DELETE', `/v2/users/${a.userId}`)).status).toBe(404);

    const order = await alice.request('POST', '/orders', { userId: a.userId, lines: [] });
    expect(order.status).toBe(201);
    expect((await bob.request('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' })).status).toBe(404);
    expect((await bob.request('DELETE', `/orders/${order.body.orderId}`)).status).toBe(404);
    expect((await bob.request('POST', '/orders', { userId: a.userId, lines: [] })).status).toBe(422);
    expect((await bob.request('POST', '/orders', { userId: b.userId, lines: [] })).status).toBe(201);
    // an admin may act for anyone
    expect((await app.request('DELETE', `/orders/${order.body.orderId}`)).status).toBe(200);
  });

  it('lets admins alone manage products', async () => {
    const user = app.anonymous();
    await signUp(user);
    const product = {
      name: 'Lamp',
      description: 'A lamp',
      price: { amount: 1999, currency: 'EUR' },
      sku: `L-${process.pid}`,
      category: 'home',
    };
    expect((await app.anonymous().request('POST', '/products', product)).status).toBe(401);
    expect((await user.request('POST', '/products', product)).status).toBe(403);
    expect((await app.request('POST', '/products', product)).status).toBe(201);
  });

  it('signs a deleted user out everywhere', async () => {
    const browser = app.anonymous();
    const me = await signUp(browser);
    const other = app.anonymous();
    await signInWithPassword(other, me.email, me.password);
    expect((await browser.request('DELETE', `/users/${me.userId}`)).status).toBe(200);
    expect((await other.request('GET', '/auth/session')).status).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin, and takes one from its own', async () => {
    const browser = app.anonymous();
    const me = await signUp(browser);
    const evil = await browser.request('PATCH', `/users/${me.userId}`, { name: 'Evil' }, { Origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const opaque = await browser.request('PATCH', `/users/${me.userId}`, { name: 'Evil' }, { Origin: 'null' });
    expect(opaque.status).toBe(403);
    const crossSite = await browser.request('PATCH', `/users/${me.userId}`, { name: 'Evil' }, { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const own = await browser.request('PATCH', `/users/${me.userId}`, { name: 'Own' }, { Origin: app.url });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe('Own');
  });
});
