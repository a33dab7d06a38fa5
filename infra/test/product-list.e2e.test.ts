// The list of products as a shop's catalogue pages it: ordered by price or by name, narrowed to a
// currency and a price range and to a category, each walked by cursor without a product twice or
// missed; and every wrong parameter refused by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

const wait = (position: number) => ({ 'Wait-For-Position': String(position) });

/** Every page of a list, `limit` at a time, by cursor: the names in the order they came. */
async function walk(query: string, limit = 2, between?: () => Promise<void>): Promise<string[]> {
  const names: string[] = [];
  let cursor = '';
  for (let pages = 0; pages < 50; pages++) {
    const reply = await app.request('GET', `/api/products?${query}&limit=${limit}&cursor=${cursor}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    names.push(...reply.body.items.map((p: { name: string }) => p.name));
    if (reply.body.nextCursor === null) return names;
    cursor = reply.body.nextCursor;
    await between?.();
  }
  throw new Error('the walk did not end');
}

describe('ordering and narrowing the products', () => {
  it('orders by price and by name, each way, within a currency and a price range and a category', async () => {
    const category = encodeURIComponent(`Orchard ${Date.now()}`);
    const made = async (name: string, amount: number, currency = 'EUR') =>
      app.write('POST', '/products', { name, price: { amount, currency }, category: decodeURIComponent(category) });
    await made('banana', 300);
    await made('Apple', 100);
    await made('cherry', 300);
    await made('apple pie', 50, 'USD');
    const last = await made('Date', 200);
    await app.request('GET', '/api/products?limit=1', undefined, wait(last.position));
    const of = `category=${category}`;
    expect(await walk(`${of}&sort=price`)).toEqual(['Apple', 'Date', 'banana', 'cherry', 'apple pie']);
    expect(await walk(`${of}&sort=-price`)).toEqual(['apple pie', 'cherry', 'banana', 'Date', 'Apple']);
    expect(await walk(`${of}&sort=name`)).toEqual(['Apple', 'apple pie', 'banana', 'cherry', 'Date']);
    expect(await walk(`${of}&sort=-name`)).toEqual(['Date', 'cherry', 'banana', 'apple pie', 'Apple']);
    expect(await walk(`${of}&sort=newest`)).toEqual(['Date', 'apple pie', 'cherry', 'Apple', 'banana']);
    expect(await walk(`${of}&currency=EUR&minPrice=150&maxPrice=300&sort=price`)).toEqual(['Date', 'banana', 'cherry']);
    expect(await walk(`${of}&currency=EUR&minPrice=150`)).toEqual(['Date', 'cherry', 'banana']);
    expect(await walk(`${of}&currency=USD`, 1)).toEqual(['apple pie']);
    // By offset too, with the category's total; the same order by `after`.
    const offset = await app.request('GET', `/products?${of}&sort=name&page=2&limit=2`);
    expect(offset.body).toMatchObject({ items: [{ name: 'banana' }, { name: 'cherry' }], page: 2, total: 5 });
    const after = await app.request('GET', `/products?${of}&sort=name&limit=4&after=`);
    expect(after.body.items.map((p: { name: string }) => p.name)).toEqual(['Apple', 'apple pie', 'banana', 'cherry']);
  });

  it('walks every product that was there once, by price, while products are added', async () => {
    const category = encodeURIComponent(`Stable ${Date.now()}`);
    let made = 0;
    const make = (amount: number) =>
      app.write('POST', '/products', {
        name: `Item ${made++}`,
        price: { amount, currency: 'EUR' },
        category: decodeURIComponent(category),
      });
    for (const amount of [500, 100, 300, 100, 200, 400]) await make(amount);
    const settled = await make(250);
    await app.request('GET', '/api/products?limit=1', undefined, wait(settled.position));
    const before = await walk(`category=${category}&sort=price`, 100);
    const during = await walk(`category=${category}&sort=price`, 2, async () => {
      // Cheaper than any page still to come, or dearer: either way no product already there moves.
      const added = await make(made % 2 ? 50 : 900);
      await app.request('GET', '/api/products?limit=1', undefined, wait(added.position));
    });
    const there = during.filter((name) => before.includes(name));
    expect(there).toEqual(before);
  });

  it('refuses a cursor of another order or range, and each wrong parameter by its name', async () => {
    const first = await app.request('GET', '/api/products?sort=price&limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (const elsewhere of ['sort=name', 'sort=-price', '', 'sort=price&currency=EUR']) {
      const reply = await app.request('GET', `/api/products?${elsewhere}&limit=1&cursor=${first.body.nextCursor}`);
      expect([reply.status, reply.body.errors?.[0]?.field], elsewhere).toEqual([400, 'cursor']);
    }
    for (const [query, field] of [
      ['sort=colour', 'sort'],
      ['minPrice=100', 'currency'],
      ['currency=eur', 'currency'],
      ['currency=EUR&minPrice=1.5', 'minPrice'],
      ['currency=EUR&minPrice=-1', 'minPrice'],
      ['currency=EUR&minPrice=300&maxPrice=200', 'maxPrice'],
    ] as const) {
      const reply = await app.request('GET', `/api/products?${query}`);
      expect([reply.status, reply.body.errors?.[0]?.field], query).toEqual([400, field]);
      expect(reply.headers.get('content-type')).toContain('application/problem+json');
    }
    const byOffset = await app.request('GET', '/products?page=1&currency=EUR&maxPrice=500');
    expect([byOffset.status, byOffset.body.errors?.[0]?.field]).toEqual([400, 'page']);
    expect(byOffset.body.errors[0].message).toMatch(/pages by cursor/);
  });
});
