// Every constraint docs/api.md, docs/errors.md and docs/auth.md state, tried at its edge: the last
// value inside is taken, the first outside is refused with a problem that names the field, and a
// refusal writes nothing. When a document and the code disagree, this test says which line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '@eventide/testing/json-client.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
let userId: string;
/** 101 products in EUR, one in USD. */
let products: string[];
let dollarProduct: string;

beforeAll(async () => {
  app = await startFullApp();
  userId = (await app.request('POST', '/users', { name: 'Customer', email: `customer-${process.pid}@example.test` })).body.userId;
  products = [];
  for (let i = 0; i < 101; i++) {
    products.push(
      (await app.request('POST', '/products', { name: `Product ${i}`, price: { amount: 100 + i, currency: 'EUR' } })).body.productId,
    );
  }
  dollarProduct = (await app.request('POST', '/products', { name: 'Dollar product', price: { amount: 100, currency: 'USD' } })).body
    .productId;
});
afterAll(() => app.close());

async function eventCount(): Promise<number> {
  let count = 0;
  for (let after = 0; ; ) {
    const page = await app.eventStore.readAll({ after, limit: 1000 });
    if (page.length === 0) return count;
    count += page.length;
    after = page.at(-1)!.position;
  }
}

/** Refused with `status`, as problem+json naming `field`, and nothing written. */
async function refused(send: () => Promise<Reply>, status: number, field: string): Promise<Reply> {
  const before = await eventCount();
  const reply = await send();
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get('content-type')).toContain('application/problem+json');
  expect(reply.body.errors?.map((e: { field: string }) => e.field) ?? [], reply.body.detail).toContain(field);
  expect(await eventCount()).toBe(before);
  return reply;
}

async function accepted(send: () => Promise<Reply>): Promise<Reply> {
  const reply = await send();
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply;
}

let n = 0;
const email = () => `limits-${++n}-${process.pid}@example.test`;
const chars = (count: number, char = 'a') => char.repeat(count);
/** An address of exactly `length` characters that is otherwise well-formed. */
function addressOf(length: number): string {
  const labels: string[] = [];
  let rest = length - 65 - 4;
  for (; rest > 63; rest -= 63) labels.push(chars(62, 'b'));
  labels.push(chars(rest, 'c'));
  return `${chars(64)}@${labels.join('.')}.com`;
}
const user = (fields: object) => app.request('POST', '/users', { name: 'Someone', email: email(), ...fields });
const product = (fields: object) => app.request('POST', '/products', { name: 'Thing', price: { amount: 1, currency: 'EUR' }, ...fields });
const order = (lines: object[]) => app.request('POST', '/orders', { userId, lines });
const json = { 'content-type': 'application/json' };

describe('users (docs/api.md, Fields)', () => {
  it('name: 1 to 200 characters, counted as code points', async () => {
    await accepted(() => user({ name: chars(200) }));
    await accepted(() => user({ name: chars(200, '😀') }));
    await refused(() => user({ name: chars(201) }), 400, 'name');
    await refused(() => user({ name: '   ' }), 400, 'name');
  });
  it('name: no control characters or line breaks', async () => {
    await refused(() => user({ name: 'Ann\nMallory' }), 400, 'name');
    await refused(() => user({ name: 'Ann\u0000' }), 400, 'name');
    await refused(() => user({ name: 'Ann\u009b' }), 400, 'name');
  });
  it('email: an address of at most 254 characters', async () => {
    await accepted(() => user({ email: addressOf(254) }));
    await refused(() => user({ email: addressOf(255) }), 400, 'email');
    await refused(() => user({ email: 'not an address' }), 400, 'email');
  });
  it('email: unique, compared case-insensitively', async () => {
    const taken = email();
    await accepted(() => user({ email: taken }));
    await refused(() => user({ email: taken.toUpperCase() }), 409, 'email');
  });
  it('password: 8 to 1,024 characters', async () => {
    await accepted(() => user({ password: chars(8) }));
    await accepted(() => user({ password: chars(1024, '🔑') }));
    await refused(() => user({ password: chars(7) }), 400, 'password');
    await refused(() => user({ password: chars(1025) }), 400, 'password');
  });
  it('a change sends at least one field, and a replacement all of them', async () => {
    await refused(() => app.request('PATCH', `/users/${userId}`, {}), 400, '(body)');
    await refused(() => app.request('PUT', `/v2/users/${userId}`, { name: 'Only a name' }), 400, 'email');
  });
});

describe('products (docs/api.md, Fields)', () => {
  it('name: 1 to 200 characters', async () => {
    await accepted(() => product({ name: chars(200) }));
    await refused(() => product({ name: chars(201) }), 400, 'name');
    await refused(() => product({ name: '' }), 400, 'name');
  });
  it('description: up to 5,000 characters, line breaks and tabs allowed, no other control characters', async () => {
    await accepted(() => product({ description: `${chars(4990)}\n\tsecond` }));
    await refused(() => product({ description: chars(5001) }), 400, 'description');
    await refused(() => product({ description: 'bell\u0007' }), 400, 'description');
  });
  it('sku: 1 to 64 characters or null; category: 1 to 100 or null', async () => {
    await accepted(() => product({ sku: chars(64), category: chars(100) }));
    await accepted(() => product({ sku: null, category: null }));
    await refused(() => product({ sku: chars(65) }), 400, 'sku');
    await refused(() => product({ sku: '' }), 400, 'sku');
    await refused(() => product({ category: chars(101) }), 400, 'category');
  });
  it('price.amount: a whole number of minor units from 0 to 9,000,000,000', async () => {
    await accepted(() => product({ price: { amount: 0, currency: 'EUR' } }));
    await accepted(() => product({ price: { amount: 9_000_000_000, currency: 'EUR' } }));
    await refused(() => product({ price: { amount: 9_000_000_001, currency: 'EUR' } }), 400, 'price.amount');
    await refused(() => product({ price: { amount: -1, currency: 'EUR' } }), 400, 'price.amount');
    await refused(() => product({ price: { amount: 1.5, currency: 'EUR' } }), 400, 'price.amount');
  });
  it('price.currency: an ISO 4217 code in capitals that ISO lists', async () => {
    await accepted(() => product({ price: { amount: 1, currency: 'JPY' } }));
    await refused(() => product({ price: { amount: 1, currency: 'XYZ' } }), 400, 'price.currency');
    await refused(() => product({ price: { amount: 1, currency: 'eur' } }), 400, 'price.currency');
  });
});

describe('orders (docs/api.md, Fields)', () => {
  const line = (i: number, quantity = 1) => ({ productId: products[i]!, quantity });
  it('lines: at most 100', async () => {
    await accepted(() => order(products.slice(0, 100).map((_, i) => line(i))));
    await refused(() => order(products.map((_, i) => line(i))), 400, 'lines');
  });
  it('quantity: 1 to 10000', async () => {
    await accepted(() => order([line(0, 10_000)]));
    await refused(() => order([line(0, 10_001)]), 400, 'lines.0.quantity');
    await refused(() => order([line(0, 0)]), 400, 'lines.0.quantity');
  });
  it('one line per product, one currency per order', async () => {
    await refused(() => order([line(0), line(0)]), 422, 'lines.1.productId');
    await refused(() => order([line(0), { productId: dollarProduct, quantity: 1 }]), 422, 'lines.1.productId');
  });
  it('userId: an existing user that is not deleted', async () => {
    await refused(() => app.request('POST', '/orders', { userId: '00000000-0000-4000-8000-000000000000', lines: [] }), 422, 'userId');
    const gone = (await user({})).body.userId;
    await accepted(() => app.request('DELETE', `/users/${gone}`));
    await refused(() => app.request('POST', '/orders', { userId: gone, lines: [] }), 422, 'userId');
  });
  it('a change sends lines or status, and status is one of the six', async () => {
    const orderId = (await accepted(() => order([line(1)]))).body.orderId;
    await refused(() => app.request('PATCH', `/orders/${orderId}`, {}), 400, '(body)');
    const bad = await refused(() => app.request('PATCH', `/orders/${orderId}`, { status: 'teleported' }), 400, 'status');
    expect(bad.body.detail).toContain('draft, placed, paid, shipped, delivered, cancelled');
  });
});

describe('requests (docs/api.md, docs/errors.md)', () => {
  it('bodies are JSON in UTF-8: bytes that are not UTF-8 are a 415 naming the first bad one', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"A'), Buffer.from([0xff, 0xfe]), Buffer.from(`","email":"${email()}"}`)]);
    const send = () => fetch(`${app.url}/users`, { method: 'POST', headers: { ...json, cookie: app.cookieHeader() }, body });
    const before = await eventCount();
    const response = await send();
    expect(response.status).toBe(415);
    expect(((await response.json()) as { detail: string }).detail).toContain('byte 10');
    expect(await eventCount()).toBe(before);
    await refused(
      () =>
        app.raw('POST', '/users', JSON.stringify({ name: 'A', email: email() }), { 'content-type': 'application/json; charset=latin1' }),
      415,
      'Content-Type',
    );
    await refused(() => app.raw('POST', '/users', 'name=A', { 'content-type': 'text/plain' }), 415, 'Content-Type');
  });
  it(`bodies are at most BODY_LIMIT bytes`, async () => {
    await refused(() => user({ name: 'A', padding: chars(70_000) }), 413, '(body)');
  });
  it('Idempotency-Key: 1 to 255 visible ASCII characters', async () => {
    await accepted(() =>
      app.request('POST', '/products', { name: 'Keyed', price: { amount: 1, currency: 'EUR' } }, { 'Idempotency-Key': chars(255, 'k') }),
    );
    const keyed = (key: string) =>
      app.request('POST', '/products', { name: 'K', price: { amount: 1, currency: 'EUR' } }, { 'Idempotency-Key': key });
    await refused(() => keyed(chars(256, 'k')), 400, 'Idempotency-Key');
    await refused(() => keyed('with space'), 400, 'Idempotency-Key');
  });
  it('If-Match: "*" or strong entity tags; weak ones are a 400', async () => {
    await refused(() => app.request('PATCH', `/users/${userId}`, { name: 'X' }, { 'If-Match': 'W/"0"' }), 400, 'If-Match');
    await refused(() => app.request('PATCH', `/users/${userId}`, { name: 'X' }, { 'If-Match': 'zero' }), 400, 'If-Match');
  });
  it('a method no route of a path has is a 405 with Allow, and on no path a 404', async () => {
    const propfind = await app.raw('PROPFIND', '/users', undefined, {});
    expect(propfind.status).toBe(405);
    expect(propfind.headers.get('allow')).toContain('POST');
    expect(propfind.body.type).toBe('/problems/method-not-allowed');
    expect((await app.raw('PROPFIND', '/nowhere', undefined, {})).status).toBe(404);
  });
});

describe('reads (docs/api.md, The read side)', () => {
  const get = (path: string, headers: Record<string, string> = {}) => app.request('GET', path, undefined, headers);
  it('page and limit: positive whole numbers, limit at most 100, page at most 1,000,000', async () => {
    await accepted(() => get('/users?page=1000000&limit=100'));
    await refused(() => get('/users?limit=101'), 400, 'limit');
    await refused(() => get('/users?page=1000001'), 400, 'page');
    await refused(() => get('/users?page=0'), 400, 'page');
    await refused(() => get('/products?limit=1.5'), 400, 'limit');
  });
  it('every parameter once, and no unknown ones', async () => {
    await refused(() => get('/products?page=1&page=2'), 400, 'page');
    await refused(() => get('/products?colour=red'), 400, 'colour');
    await refused(() => get('/products?page=1&after=abc'), 400, 'page');
  });
  it('cursors are the ones the service gave out', async () => {
    await refused(() => get('/api/products?cursor=made-up&limit=20'), 400, 'cursor');
    await refused(() => get('/products?after=made-up'), 400, 'after');
  });
  it('search: q of 3 to 200 characters after trimming and at most 8 words, limit at most 50', async () => {
    await accepted(() => get('/search?q=abc&limit=50'));
    await accepted(() => get(`/search?q=${encodeURIComponent('one two three four five six seven eight')}`));
    await refused(() => get(`/search?q=${encodeURIComponent('one two three four five six seven eight nine')}`), 400, 'q');
    await accepted(() => get(`/search?q=${encodeURIComponent(chars(200, 'é'))}`));
    await refused(() => get('/search?q=%20ab%20'), 400, 'q');
    await refused(() => get(`/search?q=${chars(201)}`), 400, 'q');
    await refused(() => get('/search?q=abc&limit=51'), 400, 'limit');
  });
  it('orders: userId a user id and status one of the statuses', async () => {
    await accepted(() => get(`/orders?userId=${userId}&status=draft`));
    await refused(() => get('/orders?userId=nobody'), 400, 'userId');
    await refused(() => get('/orders?status=lost'), 400, 'status');
  });
  it('Wait-For-Position: a whole number of at most 15 digits', async () => {
    await accepted(() => get('/products?limit=1', { 'Wait-For-Position': '1' }));
    await refused(() => get('/products', { 'Wait-For-Position': 'soon' }), 400, 'Wait-For-Position');
    await refused(() => get('/products', { 'Wait-For-Position': chars(16, '9') }), 400, 'Wait-For-Position');
  });
  it('the event stream: known event names and positions only', async () => {
    await refused(() => get('/events?types=user:created,user:exploded'), 400, 'types');
    await refused(() => get('/events?after=yesterday'), 400, 'after');
    await refused(() => get('/events', { 'Last-Event-ID': 'x' }), 400, 'Last-Event-ID');
  });
});

describe('sign-in (docs/auth.md)', () => {
  it('sign-in: an email of at most 254 characters, a password of at most 1,024', async () => {
    const signIn = (body: object) => app.anonymous().request('POST', '/auth/sign-in', body);
    await refused(() => signIn({ email: addressOf(255), password: 'whatever it is' }), 400, 'email');
    await refused(() => signIn({ email: email(), password: chars(1025) }), 400, 'password');
  });
});
