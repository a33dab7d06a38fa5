// The read side end to end on the embedded adapters: what was written can be read, listed,
// paged and searched, and a client can read its own writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

const wait = (position: number) => ({ 'Wait-For-Position': String(position) });
let n = 0;
const email = () => `reader${++n}-${Date.now()}@example.com`;

async function product(name: string, description = '') {
  const reply = await app.write('POST', '/products', { name, description, price: { amount: 100 + n++, currency: 'EUR' } });
  expect(reply.status).toBe(201);
  return reply;
}

describe('read your writes', () => {
  it('answers a read that waits for a write with exactly what the write answered', async () => {
    const written = await app.write('POST', '/users', { name: 'Reader', email: email() });
    const read = await app.request('GET', `/users/${written.body.userId}`, undefined, wait(written.position));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(written.body);
    expect(read.headers.get('etag')).toBe('"0"');
    expect(Number(read.headers.get('read-position'))).toBeGreaterThanOrEqual(written.position);
  });

  it('answers 410 for a deleted user and 404 for an unknown one', async () => {
    const written = await app.write('POST', '/users', { name: 'Gone', email: email() });
    const deleted = await app.write('DELETE', `/users/${written.body.userId}`);
    expect((await app.request('GET', `/users/${written.body.userId}`, undefined, wait(deleted.position))).status).toBe(410);
    expect((await app.request('GET', '/users/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await app.request('GET', '/users/nope')).status).toBe(404);
  });
});

describe('lists', () => {
  it('pages users by offset, newest first, with a total', async () => {
    let last = 0;
    for (let i = 0; i < 5; i++) last = (await app.write('POST', '/users', { name: `Paged ${i}`, email: email() })).position;
    const first = await app.request('GET', '/users?page=1&limit=2', undefined, wait(last));
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0].name).toBe('Paged 4');
    expect(first.body).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    const second = await app.request('GET', '/users?page=2&limit=2');
    expect(second.body.items[0].name).toBe('Paged 2');
  });

  it('serves v1 users and orders deprecated, in their v1 shape', async () => {
    const user = await app.write('POST', '/users', { name: 'V1', email: email() });
    const kettle = await product('V1 kettle');
    const order = await app.write('POST', '/orders', {
      userId: user.body.userId,
      lines: [{ productId: kettle.body.productId, quantity: 2 }],
    });
    const v1 = await app.request('GET', `/v1/orders/${order.body.orderId}`, undefined, wait(order.position));
    expect(v1.status).toBe(200);
    expect(v1.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(v1.body).toMatchObject({ total: (kettle.body.price.amount * 2) / 100, currency: 'EUR' });
    const users = await app.request('GET', '/v1/users?limit=1');
    expect(Object.keys(users.body.items[0]).sort()).toEqual(['email', 'name', 'userId']);
    expect((await app.request('GET', `/v2/users/${user.body.userId}`)).body).toEqual(user.body);
  });

  it('filters orders by user and by status', async () => {
    const buyer = await app.write('POST', '/users', { name: 'Buyer', email: email() });
    const kettle = await product('Filter kettle');
    const line = [{ productId: kettle.body.productId, quantity: 1 }];
    const a = await app.write('POST', '/orders', { userId: buyer.body.userId, lines: line });
    await app.write('POST', '/orders', { userId: buyer.body.userId, lines: line });
    const placed = await app.write('PATCH', `/orders/${a.body.orderId}`, { status: 'placed' });
    const mine = await app.request('GET', `/orders?userId=${buyer.body.userId}`, undefined, wait(placed.position));
    expect(mine.body.total).toBe(2);
    const minePlaced = await app.request('GET', `/orders?userId=${buyer.body.userId}&status=placed`);
    expect(minePlaced.body.items.map((o: { orderId: string }) => o.orderId)).toEqual([a.body.orderId]);
  });
});

describe('product paging', () => {
  it('walks every page by cursor while products are created: each one that existed, exactly once', async () => {
    let last = 0;
    for (let i = 0; i < 45; i++) last = (await product(`Walk ${i}`)).position;
    const existing = (await app.request('GET', '/products?page=1&limit=100', undefined, wait(last))).body.items.map(
      (p: { productId: string }) => p.productId,
    );
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 100; pages++) {
      const reply = await app.request('GET', `/api/products?cursor=${encodeURIComponent(cursor)}&limit=7`);
      expect(reply.status).toBe(200);
      seen.push(...reply.body.items.map((p: { productId: string }) => p.productId));
      // Writes between pages, and waits until they are visible, so they could disturb the walk.
      const created = await product(`During walk ${pages}`);
      await app.request('GET', '/api/products?limit=1', undefined, wait(created.position));
      if (reply.body.nextCursor === null) break;
      cursor = reply.body.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen.filter((s) => s === id)).toHaveLength(1);
  });

  it('defaults /api/products to 20 items and marks the last page with nextCursor null', async () => {
    const first = await app.request('GET', '/api/products?cursor=');
    expect(first.body.items).toHaveLength(20);
    expect(typeof first.body.nextCursor).toBe('string');
    const all = await app.request('GET', '/api/products?limit=100');
    const lastItem = all.body.items.at(-1);
    let cursor = first.body.nextCursor;
    let lastPage: Awaited<ReturnType<typeof app.request>> | undefined;
    for (let i = 0; i < 100 && cursor; i++) {
      lastPage = await app.request('GET', `/api/products?cursor=${encodeURIComponent(cursor)}`);
      cursor = lastPage.body.nextCursor;
    }
    expect(lastPage!.body.nextCursor).toBeNull();
    expect(lastPage!.body.items.at(-1)).toEqual(lastItem);
  });

  it('pages /products by after as well, and refuses page with after', async () => {
    const first = await app.request('GET', '/products?after=&limit=3');
    expect(first.body.items).toHaveLength(3);
    const second = await app.request('GET', `/products?after=${encodeURIComponent(first.body.nextCursor)}&limit=3`);
    expect(second.body.items[0].productId).not.toBe(first.body.items[2].productId);
    expect((await app.request('GET', `/products?page=1&after=${encodeURIComponent(first.body.nextCursor)}`)).status).toBe(400);
  });

  it('shows offset paging repeating an item when a product is created between pages, as documented', async () => {
    const page1 = await app.request('GET', '/products?page=1&limit=5');
    const created = await product('Inserted between pages');
    const page2 = await app.request('GET', '/products?page=2&limit=5', undefined, wait(created.position));
    expect(page2.body.items[0].productId).toBe(page1.body.items[4].productId);
  });
});

describe('products of a category', () => {
  it('lists one category by cursor and by offset, its cursor good for it alone, and moves a product that changes category', async () => {
    const category = `Teaware ${Date.now()}`;
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await app.write('POST', '/products', { name: `Cup ${i}`, price: { amount: 500, currency: 'EUR' }, category }));
      await app.write('POST', '/products', {
        name: `Fork ${i}`,
        price: { amount: 300, currency: 'EUR' },
        category: `${category} and cutlery`,
      });
    }
    const at = wait(made[2]!.position);
    const first = await app.request('GET', `/api/products?limit=2&category=${encodeURIComponent(category)}`, undefined, at);
    expect(first.body.items.map((p: { name: string }) => p.name)).toEqual(['Cup 2', 'Cup 1']);
    const rest = await app.request('GET', `/api/products?limit=2&category=${encodeURIComponent(category)}&cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ items: [{ name: 'Cup 0' }], nextCursor: null });
    // A category's cursor does not page another, nor every product.
    for (const elsewhere of [`&category=${encodeURIComponent(`${category} and cutlery`)}`, '']) {
      const refused = await app.request('GET', `/api/products?limit=2&cursor=${first.body.nextCursor}${elsewhere}`);
      expect([refused.status, refused.body.errors?.[0]?.field]).toEqual([400, 'cursor']);
    }
    const byOffset = await app.request('GET', `/products?limit=2&page=2&category=${encodeURIComponent(category)}`);
    expect(byOffset.body).toMatchObject({ items: [{ name: 'Cup 0' }], page: 2, limit: 2, total: 3 });
    // Moved to another category, a product leaves this one's list.
    const moved = await app.write('PATCH', `/products/${made[0]!.body.productId}`, { category: 'Elsewhere' });
    const after = await app.request('GET', `/api/products?category=${encodeURIComponent(category)}`, undefined, wait(moved.position));
    expect(after.body.items.map((p: { name: string }) => p.name)).toEqual(['Cup 2', 'Cup 1']);
  });

  it('refuses a category that is empty or too long, naming it', async () => {
    for (const bad of ['', 'x'.repeat(101)]) {
      const reply = await app.request('GET', `/api/products?category=${bad}`);
      expect([reply.status, reply.body.errors?.[0]?.field]).toEqual([400, 'category']);
    }
  });
});

describe('search', () => {
  it('ranks name matches above description matches, and matches the last word as a prefix', async () => {
    const inName = await product('Zephyr blender', 'Mixes');
    const inDescription = await product('Jug', 'Pairs with the zephyr blender');
    await product('Unrelated', 'Nothing to see');
    await app.request('GET', '/products?limit=1', undefined, wait(inDescription.position + 1));
    const reply = await app.request('GET', '/search?q=zephyr');
    expect(reply.status).toBe(200);
    expect(reply.body.items.map((p: { productId: string }) => p.productId)).toEqual([inName.body.productId, inDescription.body.productId]);
    expect(reply.body.items[0].score).toBeGreaterThan(reply.body.items[1].score);
    expect((await app.request('GET', '/search?q=zeph')).body.items).toHaveLength(2);
  });
});

describe('bad input to the query service', () => {
  const refused = async (path: string, field: string, status = 400) => {
    const reply = await app.request('GET', path);
    expect(reply.status, path).toBe(status);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
    expect(
      reply.body.errors.map((e: { field: string }) => e.field),
      path,
    ).toContain(field);
  };
  it('refuses page and limit that are not positive whole numbers, or too large', async () => {
    await refused('/users?page=0', 'page');
    await refused('/users?page=abc', 'page');
    await refused('/users?page=1.5', 'page');
    await refused('/users?limit=-1', 'limit');
    await refused('/users?limit=101', 'limit');
    await refused('/api/products?limit=0', 'limit');
  });
  it('refuses a repeated parameter', () => refused('/users?page=1&page=2', 'page'));
  it('refuses an unknown parameter and operator syntax', async () => {
    await refused('/users?sort=name', 'sort');
    await refused('/search?q[$regex]=.*', 'q[$regex]');
    await refused('/orders?userId[$ne]=x', 'userId[$ne]');
    await refused('/orders?status=teleported', 'status');
  });
  it('refuses garbled and forged cursors', async () => {
    // Two products of its own, read once projected: a page of one then has a next page, whatever ran before.
    await app.write('POST', '/products', { name: 'Cursor one', price: { amount: 100, currency: 'EUR' } });
    const { position } = await app.write('POST', '/products', { name: 'Cursor two', price: { amount: 100, currency: 'EUR' } });
    const first = await app.request('GET', '/api/products?limit=1', undefined, wait(position));
    const good = first.body.nextCursor as string;
    await refused('/api/products?cursor=garbage', 'cursor');
    const [body, mac] = good.split('.');
    const forgedBody = Buffer.from(JSON.stringify([1, 'products', 1])).toString('base64url');
    await refused(`/api/products?cursor=${forgedBody}.${mac}`, 'cursor');
    // A MAC one bit off (a fixed replacement of its last characters equals the real one once in 256 pages).
    const bytes = Buffer.from(mac!, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    await refused(`/api/products?cursor=${body}.${bytes.toString('base64url')}`, 'cursor');
    await refused(`/products?after=${encodeURIComponent(good)}x`, 'after');
  });
  it('refuses a search shorter than 3 characters, saying why', async () => {
    const reply = await app.request('GET', '/search?q=ab');
    expect(reply.status).toBe(400);
    expect(reply.body.detail).toMatch(/at least 3 characters/);
    await refused('/search', 'q');
  });
  it('matches regular-expression characters literally, quickly', async () => {
    const evil = `${'a'.repeat(150)}!(a+)+$`;
    const reply = await app.request('GET', `/search?q=${encodeURIComponent(evil)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.items).toEqual([]);
    expect((await app.request('GET', `/search?q=${encodeURIComponent('.*.*.*')}`)).body.items).toEqual([]);
  });
  it('refuses a Wait-For-Position that is not a position', () => refusedHeader());
});

async function refusedHeader() {
  const reply = await app.request('GET', '/users', undefined, { 'Wait-For-Position': 'soon' });
  expect(reply.status).toBe(400);
  expect(reply.body.errors[0].field).toBe('Wait-For-Position');
}
