// The typed client against the route table, and against a fake fetch: where each method goes,
// the headers its options become, problems as ApiProblem, and cursor pages as an iterator.
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@eventide/contract/routes.ts';
import { createApiClient } from './api-client.ts';
import { ApiProblem } from './problem.ts';

describe('the typed client', () => {
  it('goes where the route table says, and has a shorthand for every current JSON operation', async () => {
    const { requests, fetch } = fakeFetch(
      Array.from({ length: 80 }, () => ({ status: 200, body: { items: [], nextCursor: null, providers: [], location: 'http://x.test/' } })),
    );
    const api = createApiClient({ baseUrl: '', fetch });
    const id = 'i';
    await Promise.all([
      api.users.signUp({ name: 'A', email: 'a@example.test' }),
      api.users.get(id),
      api.users.list(),
      api.users.change(id, { name: 'B' }),
      api.users.delete(id),
      api.users.export(id),
      api.users.history(id),
      api.products.create({ name: 'K', price: { amount: 1, currency: 'EUR' } }),
      api.products.get(id),
      api.products.change(id, { name: 'L' }),
      api.products.delete(id),
      api.products.addImage(id, new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' })),
      api.products.list(),
      api.products.page(),
      api.products.search('kettle'),
      api.products.history(id, { limit: 5 }),
      api.orders.create({ userId: id }),
      api.orders.get(id),
      api.orders.list(),
      api.orders.change(id, { status: 'placed' }),
      api.orders.delete(id),
      api.orders.history(id),
      api.auth.signIn({ email: 'a@example.test', password: 'p' }),
      api.auth.signOut(),
      api.auth.session(),
      api.auth.setPassword({ password: 'a long passphrase' }),
      api.auth.unlinkProvider('github'),
      api.auth.linkProviderLocation('github'),
      api.auth.providers(),
      api.documents.list(),
      api.documents.create({ title: 'T' }),
      api.documents.people(id),
      api.documents.shareWith(id, { email: 'b@example.test' }),
      api.documents.get(id),
      api.documents.access(id),
      api.documents.share(id, 'u'),
      api.documents.unshare(id, 'u'),
      api.documents.share(id, 'u', 'viewer'),
      api.documents.unshare(id, 'u', 'viewer'),
      api.documents.versions(id),
      api.documents.nameVersion(id, { name: 'Draft' }),
      api.documents.forgetVersion(id, 3),
      api.operations.followers(),
      api.operations.parked({ follower: 'projector' }),
      api.operations.retry({}),
      api.operations.skip({ follower: 'publisher', position: 7, reason: 'a test' }),
      api.operations.streams(),
      api.operations.deadlines(),
      api.webhooks.list(),
      api.webhooks.create({ url: 'https://hooks.example.com/', events: ['order:created'] }),
      api.webhooks.get(id),
      api.webhooks.change(id, { enabled: true }),
      api.webhooks.remove(id),
      api.webhooks.rotateSecret(id),
      api.webhooks.deliveries(id),
      api.webhooks.redeliver(id, id),
      api.operations.stream('product-1'),
    ]);
    const routeOf = (method: string, url: string) => {
      const path = url.split('?')[0]!;
      return API_ROUTES.find((r) => r.method === method.toLowerCase() && new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
    };
    const reached = new Set(requests.map((r) => routeOf(r.init.method!, r.url)?.operationId));
    expect(reached.has(undefined), 'every request goes to a route of the table').toBe(false);
    const json = API_ROUTES.filter(
      (r) =>
        !r.deprecated &&
        !r.path.startsWith('/v2/') &&
        r.spec.service !== 'platform' &&
        Object.entries(r.shape.answers).every(([status, a]) => Number(status) < 300 && a.contentType === undefined),
    );
    expect(json.map((r) => r.operationId).filter((name) => !reached.has(name))).toEqual([]);
  });

  function fakeFetch(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>) {
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
      requests.push({ url: String(url), init });
      const answer = answers.shift()!;
      const type = answer.status >= 400 ? 'application/problem+json' : 'application/json';
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': type, ...answer.headers },
      });
    };
    return { requests, fetch: fetch as typeof globalThis.fetch };
  }

  it('with readYourWrites, makes reads wait for its own latest write', async () => {
    const { requests, fetch } = fakeFetch([
      { status: 200, body: {} },
      { status: 201, body: { productId: 'p1' }, headers: { 'event-position': '42' } },
      { status: 200, body: { productId: 'p1' }, headers: { 'event-position': '7' } },
      { status: 201, body: { productId: 'p2' }, headers: { 'event-position': '40' } },
      { status: 200, body: {} },
      { status: 200, body: {} },
    ]);
    const api = createApiClient({ baseUrl: '', fetch, readYourWrites: true });
    const waitOf = (i: number) => (requests[i]!.init.headers as Record<string, string>)['Wait-For-Position'];
    await api.products.get('p0');
    await api.products.create({ name: 'Kettle', price: { amount: 100, currency: 'EUR' } });
    await api.products.get('p1');
    await api.products.create({ name: 'Pot', price: { amount: 100, currency: 'EUR' } });
    await api.products.get('p1');
    await api.products.get('p1', { waitForPosition: 3 });
    expect([0, 1, 2, 3, 4, 5].map(waitOf)).toEqual([undefined, undefined, '42', undefined, '42', '3']);
    // Without the option, nothing is added.
    const plain = fakeFetch([
      { status: 201, body: {}, headers: { 'event-position': '9' } },
      { status: 200, body: {} },
    ]);
    const client = createApiClient({ baseUrl: '', fetch: plain.fetch });
    await client.products.create({ name: 'Cup', price: { amount: 100, currency: 'EUR' } });
    await client.products.get('x');
    expect((plain.requests[1]!.init.headers as Record<string, string>)['Wait-For-Position']).toBeUndefined();
  });

  it('turns its options into If-Match, Idempotency-Key and Wait-For-Position, and reads ETag and Event-Position', async () => {
    const { requests, fetch } = fakeFetch([
      { status: 200, body: { userId: 'u1' }, headers: { etag: '"4"', 'event-position': '17' } },
      { status: 200, body: {} },
    ]);
    const api = createApiClient({ baseUrl: 'http://api.test', fetch });
    const answer = await api.users.change('u 1', { name: 'Ann' }, { ifMatch: 3, idempotencyKey: 'k-1' });
    expect(requests[0]!.url).toBe('http://api.test/users/u%201');
    expect(requests[0]!.init.method).toBe('PATCH');
    expect(requests[0]!.init.headers).toMatchObject({ 'If-Match': '"3"', 'Idempotency-Key': 'k-1', 'content-type': 'application/json' });
    expect(requests[0]!.init.body).toBe('{"name":"Ann"}');
    expect(answer).toMatchObject({ version: 4, position: 17, data: { userId: 'u1' } });
    await api.users.get('u1', { waitForPosition: answer.position! });
    expect(requests[1]!.init.headers).toMatchObject({ 'Wait-For-Position': '17' });
  });

  it('throws the problem document as an ApiProblem, with field errors and Retry-After', async () => {
    const problem = {
      type: 'validation',
      title: 'The request is not valid',
      status: 400,
      detail: 'email: must be an email address',
      errors: [{ field: 'email', message: 'must be an email address' }],
    };
    const limited = { type: 'rate-limited', title: 'Too many requests', status: 429, detail: 'slow down' };
    const { fetch } = fakeFetch([
      { status: 400, body: problem },
      { status: 429, body: limited, headers: { 'retry-after': '3' } },
    ]);
    const api = createApiClient({ baseUrl: '', fetch });
    const refused = await api.users.signUp({ name: 'Ann', email: 'nope' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).fieldError('email')).toBe('must be an email address');
    await expect(api.products.search('kettle')).rejects.toMatchObject({ status: 429, retryAfterMs: 3000 });
  });

  it('walks cursor pages as an async iterator, asking for the next only when the loop wants it', async () => {
    const { requests, fetch } = fakeFetch([
      { status: 200, body: { items: [{ productId: 'a' }, { productId: 'b' }], nextCursor: 'c1' } },
      { status: 200, body: { items: [{ productId: 'c' }], nextCursor: null } },
    ]);
    const api = createApiClient({ baseUrl: '', fetch });
    const seen: string[] = [];
    for await (const product of api.products.all({ limit: 2 })) {
      seen.push(product.productId);
      if (seen.length === 1) expect(requests).toHaveLength(1);
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(requests.map((r) => r.url)).toEqual(['/api/products?limit=2&cursor=', '/api/products?limit=2&cursor=c1']);
  });
});
