// The typed client against the real services: it signs in, writes with Idempotency-Key and
// If-Match, reads its writes with Wait-For-Position, walks cursor pages, searches, and gets
// refusals as ApiProblem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '@eventide/client/api-client.ts';
import { ApiProblem } from '@eventide/client/problem.ts';
import { reportingFetch } from '@eventide/testing/json-client.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app?.close());

/** What a browser does with cookies, for one site, in Node. */
function signedInClient(): ApiClient {
  const jar = new Map<string, string>();
  const withCookies: typeof fetch = async (input, init = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const cut = pair.indexOf('=');
      jar.set(pair.slice(0, cut), pair.slice(cut + 1));
    }
    return response;
  };
  return createApiClient({ baseUrl: app.url, fetch: reportingFetch(withCookies) });
}

describe('the typed client', () => {
  it('signs up once for one idempotency key, signs in, and reads its own write', async () => {
    const email = `client-${Date.now()}@example.com`;
    const body = { name: 'Client', email, password: 'a long passphrase' };
    const first = await signedInClient().users.signUp(body, { idempotencyKey: `key-${email}` });
    // A retry whose first answer was lost (so no cookie came back either) gets the same answer.
    const again = await signedInClient().users.signUp(body, { idempotencyKey: `key-${email}` });
    expect(again.data.userId).toBe(first.data.userId);
    const api = signedInClient();
    const session = await api.auth.signIn({ email, password: 'a long passphrase' });
    expect(session.user?.email).toBe(email);
    const changed = await api.users.change(first.data.userId, { name: 'Client Two' }, { ifMatch: first.version! });
    const read = await api.users.get(first.data.userId, { waitForPosition: changed.position! });
    expect(read.data.name).toBe('Client Two');
    expect(read.version).toBe(changed.version);
  });

  it('gets a stale ETag refused as a 412 problem naming If-Match', async () => {
    const api = signedInClient();
    const email = `stale-${Date.now()}@example.com`;
    // Sign-up signs the new user in.
    const user = await api.users.signUp({ name: 'Stale', email, password: 'a long passphrase' });
    await api.users.change(user.data.userId, { name: 'Newer' }, { ifMatch: user.version! });
    const refused = await api.users.change(user.data.userId, { name: 'Older' }, { ifMatch: user.version! }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect(refused).toMatchObject({ status: 412, type: '/problems/precondition-failed' });
    expect((refused as ApiProblem).fieldError('If-Match')).toBeDefined();
  });

  it('walks every product by cursor and finds one by search', async () => {
    const names = Array.from({ length: 5 }, (_, i) => `Client kettle ${i}`);
    let position = 0;
    for (const name of names) position = (await app.write('POST', '/products', { name, price: { amount: 100, currency: 'EUR' } })).position;
    const api = createApiClient({ baseUrl: app.url, fetch: reportingFetch() });
    const seen: string[] = [];
    for await (const product of api.products.all({ limit: 2 }, { waitForPosition: position })) seen.push(product.name);
    expect(seen).toEqual(expect.arrayContaining(names));
    expect(new Set(seen).size).toBe(seen.length);
    const found = await api.products.search('Client kettle 3');
    expect(found.items[0]?.name).toBe('Client kettle 3');
  });

  it('gets bad input refused as a 400 problem with the field named', async () => {
    const api = createApiClient({ baseUrl: app.url, fetch: reportingFetch() });
    const refused = await api.users.signUp({ name: '', email: 'not an address' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).status).toBe(400);
    expect((refused as ApiProblem).fieldError('email')).toMatch(/email/);
    expect((refused as ApiProblem).fieldError('name')).toBeDefined();
  });
});
