// Sign-in through a real OpenID provider (oidc-provider on 127.0.0.1), the whole flow without a
// browser: GET /auth/{provider}, sign-in and consent at the provider, GET /auth/callback, session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEventName } from '@eventide/kernel/events/catalogue.ts';
import { COLLECTIONS } from '@eventide/stores/read-store/port.ts';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { until } from '@eventide/testing/wait.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { startTestProvider, type TestProvider } from './oidc-provider.ts';

let provider: TestProvider;
let app: FullApp;
/** Everything the app answered and logged, for the last test. */
const answered: string[] = [];
const logged = capturedLog('trace');
const sessionIds = new Set<string>();

beforeAll(async () => {
  provider = await startTestProvider();
  app = await startFullApp({
    env: { AUTH_PROVIDERS: provider.config('acme') },
    log: logged.log,
    onReply: (reply) => {
      answered.push(reply.text);
      for (const cookie of reply.headers.getSetCookie()) {
        const value = new RegExp(`^${SESSION_COOKIE.replace('.', '\\.')}=([^;]+)`).exec(cookie)?.[1];
        if (value) sessionIds.add(value);
      }
    },
  });
  provider.serve(`${app.url}/auth/callback`);
});
afterAll(async () => {
  await app.close();
  await provider.close();
});

let people = 0;
function person(emailVerified = true) {
  const sub = `sub-${++people}`;
  const email = `person-${people}-${process.pid}@example.test`;
  provider.accounts.set(sub, { email, emailVerified, name: `Person ${people}` });
  return { sub, email };
}

/** GET /auth/acme in `browser`: where the app sends it, at the provider. */
async function start(browser: JsonClient, path = '/auth/acme'): Promise<string> {
  const reply = await browser.request('GET', path);
  expect(reply.status).toBe(303);
  return reply.headers.get('location')!;
}

/** The callback path (with query) the provider sent the browser back to. */
const callbackOf = (url: URL) => url.pathname + url.search;

async function signInThroughProvider(browser: JsonClient, sub: string, path?: string) {
  const back = await provider.authorize(await start(browser, path), sub);
  return browser.request('GET', callbackOf(back));
}

describe('sign-in through an OpenID provider', () => {
  it('redirects with state, PKCE (S256) and a nonce, then signs in a new user whose address the provider verified', async () => {
    const browser = app.anonymous();
    const authorize = new URL(await start(browser, '/auth/acme?returnTo=%2Forders%3Fmine%3D1'));
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${app.url}/auth/callback`);
    expect(authorize.searchParams.has('client_secret')).toBe(false);

    const { sub, email } = person();
    const back = await provider.authorize(authorize.toString(), sub);
    expect(back.searchParams.get('iss')).toBe(provider.issuer);
    const callback = await browser.request('GET', callbackOf(back));
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/orders?mine=1');

    const session = await browser.request('GET', '/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email, name: expect.stringMatching(/^Person/) });
    expect(session.body.signInMethods).toEqual({ password: false, providers: ['acme'] });

    // The next sign-in through the provider reaches the same user.
    const again = app.anonymous();
    expect((await signInThroughProvider(again, sub)).status).toBe(303);
    expect((await again.request('GET', '/auth/session')).body.userId).toBe(session.body.userId);
  });

  it('lists the configured providers by name, for a sign-in page', async () => {
    const reply = await app.anonymous().request('GET', '/auth/providers');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ providers: [{ name: 'acme' }] });
  });

  it('answers 404 for an unknown provider and 400 for a return path on another origin', async () => {
    expect((await app.anonymous().request('GET', '/auth/nope')).status).toBe(404);
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'orders']) {
      const reply = await app.anonymous().request('GET', `/auth/acme?returnTo=${encodeURIComponent(returnTo)}`);
      expect(reply.status, returnTo).toBe(400);
      expect(reply.body.errors[0].field).toBe('returnTo');
    }
  });

  it('gives 400 without asking for a token when the state is missing, foreign or reused', async () => {
    const { sub } = person();
    const browser = app.anonymous();
    const back = await provider.authorize(await start(browser), sub);
    const before = provider.tokenRequests();

    // missing state, in the browser that started the sign-in
    const noState = new URL(back);
    noState.searchParams.delete('state');
    expect((await browser.request('GET', callbackOf(noState))).status).toBe(400);

    // foreign: another browser's callback, carrying this browser's state
    const other = app.anonymous();
    const foreign = await provider.authorize(await start(other), sub);
    const victim = app.anonymous();
    await start(victim);
    const planted = await victim.request('GET', callbackOf(foreign));
    expect(planted.status).toBe(400);
    expect(planted.body.errors[0].field).toBe('state');

    // no sign-in started in this browser at all
    expect((await app.anonymous().request('GET', callbackOf(foreign))).status).toBe(400);
    expect(provider.tokenRequests()).toBe(before);

    // reused: a callback that has completed once cannot complete again
    const fresh = app.anonymous();
    const flowCookie = async () => {
      const location = await start(fresh);
      return { location, cookies: fresh.cookieHeader() };
    };
    const { location, cookies } = await flowCookie();
    const done = await provider.authorize(location, sub);
    expect((await fresh.request('GET', callbackOf(done))).status).toBe(303);
    const requestsAfterFirst = provider.tokenRequests();
    const replay = app.anonymous();
    replay.setCookies(cookies);
    expect((await replay.request('GET', callbackOf(done))).status).toBe(400);
    expect(provider.tokenRequests()).toBe(requestsAfterFirst);
  });

  it('refuses a callback whose issuer is not the provider the sign-in went to (mix-up)', async () => {
    const { sub } = person();
    const browser = app.anonymous();
    const back = await provider.authorize(await start(browser), sub);
    const before = provider.tokenRequests();
    back.searchParams.set('iss', 'https://attacker.example');
    const reply = await browser.request('GET', callbackOf(back));
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].field).toBe('iss');
    expect(provider.tokenRequests()).toBe(before);
  });

  it('makes a stolen code useless without its PKCE verifier', async () => {
    const { sub } = person();
    const back = await provider.authorize(await start(app.anonymous()), sub);
    const response = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: `${app.url}/auth/callback`,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('does not let an unverified password account made with the victim’s address capture the victim’s sign-in (pre-hijacking)', async () => {
    const victim = person();
    const attacker = app.anonymous();
    const planted = await signUp(attacker, { email: victim.email, password: 'attacker knows this' });

    const browser = app.anonymous();
    const reply = await signInThroughProvider(browser, victim.sub);
    expect(reply.status).toBe(409);
    expect(reply.body.type).toBe('/problems/account-exists');
    expect((await browser.request('GET', '/auth/session')).status).toBe(401);

    // The attacker's account gained no way in through the victim's provider account.
    await signInWithPassword(attacker, planted.email, planted.password);
    expect((await attacker.request('GET', '/auth/session')).body.signInMethods).toEqual({ password: true, providers: [] });
  });

  it('refuses to make an account from an address the provider did not verify', async () => {
    const unverified = person(false);
    const reply = await signInThroughProvider(app.anonymous(), unverified.sub);
    expect(reply.status).toBe(403);
    expect(reply.body.type).toBe('/problems/email-not-verified');
  });

  it('links a provider to a signed-in password account: both ways reach the same user, and it can be unlinked', async () => {
    const browser = app.anonymous();
    const me = await signUp(browser);
    const { sub } = person();

    const anonymousLink = await app.anonymous().request('POST', '/auth/acme/link');
    expect(anonymousLink.status).toBe(401);
    const link = await browser.request('POST', '/auth/acme/link');
    expect(link.status).toBe(303);
    const back = await provider.authorize(link.headers.get('location')!, sub);
    expect((await browser.request('GET', callbackOf(back))).status).toBe(303);
    expect((await browser.request('GET', '/auth/session')).body.signInMethods).toEqual({ password: true, providers: ['acme'] });

    const viaProvider = app.anonymous();
    await signInThroughProvider(viaProvider, sub);
    expect((await viaProvider.request('GET', '/auth/session')).body.userId).toBe(me.userId);
    const viaPassword = app.anonymous();
    await signInWithPassword(viaPassword, me.email, me.password);
    expect((await viaPassword.request('GET', '/auth/session')).body.userId).toBe(me.userId);

    expect((await browser.request('DELETE', '/auth/identities/acme')).status).toBe(204);
    // The provider account no longer reaches this user: it signs in to a new one of its own.
    const afterUnlink = app.anonymous();
    expect((await signInThroughProvider(afterUnlink, sub)).status).toBe(303);
    const other = (await afterUnlink.request('GET', '/auth/session')).body.userId;
    expect(other).toBeTruthy();
    expect(other).not.toBe(me.userId);
  });

  it('keeps the only way to sign in: unlinking the last provider of an account without a password is refused', async () => {
    const { sub } = person();
    const browser = app.anonymous();
    await signInThroughProvider(browser, sub);
    expect((await browser.request('DELETE', '/auth/identities/acme')).status).toBe(409);
    // After choosing a password, unlinking is fine, and the password signs in.
    expect((await browser.request('PUT', '/auth/password', { password: 'my own passphrase' })).status).toBe(204);
    expect((await browser.request('DELETE', '/auth/identities/acme')).status).toBe(204);
  });

  // Runs last: every flow above has been through the app by now.
  it('after all of the flows, holds no password, hash, token, code or session id in any answer, log line, published event or read model', async () => {
    const hashes: string[] = [];
    const published: string[] = [];
    let lastPublic = 0;
    for (let after = 0; ; ) {
      const page = await app.eventStore.readAll({ after, limit: 1000 });
      if (page.length === 0) break;
      for (const event of page) {
        if (event.type === 'account:password-set') hashes.push((event.data as { hash: string }).hash);
        if (isEventName(event.type)) lastPublic = event.position;
      }
      after = page.at(-1)!.position;
    }
    expect(hashes.length).toBeGreaterThan(0);
    expect(provider.issued.size).toBeGreaterThan(0);

    // The bus: what GET /events streams to subscribers (the same envelopes Kafka gets).
    expect(sessionIds.size).toBeGreaterThan(0);
    const stream = await fetch(`${app.url}/events`, { headers: { cookie: app.cookieHeader(), accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of stream.body!) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(`id: ${lastPublic}\n`)) break;
    }
    published.push(text);

    await until(() => app.projector.position() >= lastPublic, 'the read models to catch up');
    const models: string[] = [];
    for (const collection of COLLECTIONS) {
      const { items } = await app.readStore.list(collection, { limit: 10_000, offset: 0, filter: {} });
      models.push(JSON.stringify(items));
    }

    const secrets = [...hashes, ...provider.issued, provider.clientSecret, ...sessionIds];
    const places = { answers: answered.join('\n'), logs: logged.text(), bus: published.join('\n'), 'read models': models.join('\n') };
    expect(places.logs.length).toBeGreaterThan(1000);
    for (const [where, haystack] of Object.entries(places)) {
      for (const secret of secrets) expect(haystack.includes(secret), `${where} hold a secret`).toBe(false);
      expect(haystack, where).not.toMatch(
        /\$scrypt\$|a long passphrase|attacker knows this|my own passphrase|client_secret|access_token|id_token/,
      );
    }
  });
});
