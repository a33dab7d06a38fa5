import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let app: TestApp;
let userId: string;
let kettle: string;
let mug: string;
beforeAll(async () => {
  app = await startTestApp();
  userId = (await app.request('POST', '/users', { name: 'Buyer', email: 'buyer@example.com' })).body.userId;
  kettle = (await app.request('POST', '/products', { name: 'Kettle', description: 'Boils', price: { amount: 2999, currency: 'EUR' } })).body
    .productId;
  mug = (await app.request('POST', '/products', { name: 'Mug', price: { amount: 450, currency: 'EUR' }, sku: 'MUG-1' })).body.productId;
});
afterAll(() => app.close());

describe('products', () => {
  it('creates a product with defaults for optional fields', async () => {
    const reply = await app.request('POST', '/products', { name: 'Tea', price: { amount: 300, currency: 'GBP' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      name: 'Tea',
      description: '',
      taxRate: null,
      sku: null,
      category: null,
      price: { amount: 300, currency: 'GBP' },
    });
    expect(reply.headers.get('location')).toBe(`/products/${reply.body.productId}`);
  });

  it('states the tax its price includes, and changes it', async () => {
    const created = await app.request('POST', '/products', { name: 'Bread', price: { amount: 250, currency: 'EUR' }, taxRate: 5.5 });
    expect(created.status).toBe(201);
    expect(created.body.taxRate).toBe(5.5);
    const path = `/products/${created.body.productId}`;
    expect((await app.request('PATCH', path, { taxRate: 7 })).body).toMatchObject({ taxRate: 7, version: 1 });
    expect((await app.request('PATCH', path, { taxRate: null })).body).toMatchObject({ taxRate: null, version: 2 });
    for (const [taxRate, says] of [
      [5.555, 'at most two decimals'],
      [101, 'at most 100'],
      [-1, '0 or more'],
      ['20', 'a number of percent'],
    ] as const) {
      const refused = await app.request('PATCH', path, { taxRate });
      expect(refused.status, String(taxRate)).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'taxRate' });
      expect(refused.body.errors[0].message).toContain(says);
    }
  });

  it('changes and deletes a product', async () => {
    const created = await app.request('POST', '/products', { name: 'Pot', price: { amount: 1000, currency: 'EUR' } });
    const path = `/products/${created.body.productId}`;
    const changed = await app.request('PATCH', path, { price: { amount: 900, currency: 'EUR' }, category: 'Kitchen' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ price: { amount: 900, currency: 'EUR' }, category: 'Kitchen', version: 1 });
    expect((await app.request('DELETE', path)).status).toBe(200);
    expect((await app.request('PATCH', path, { name: 'x' })).status).toBe(410);
  });
});

describe('orders', () => {
  it('walks the whole life cycle', async () => {
    const created = await app.request('POST', '/orders', { userId, lines: [{ productId: kettle, quantity: 2 }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'draft',
      lines: [
        { productId: kettle, quantity: 2, unitPrice: { amount: 2999, currency: 'EUR' }, lineTotal: { amount: 5998, currency: 'EUR' } },
      ],
      total: { amount: 5998, currency: 'EUR' },
    });
    const path = `/orders/${created.body.orderId}`;
    for (const status of ['placed', 'paid', 'shipped', 'delivered']) {
      const reply = await app.request('PATCH', path, { status });
      expect(reply.status, status).toBe(200);
      expect(reply.body.status).toBe(status);
    }
    const refused = await app.request('PATCH', path, { status: 'cancelled' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/delivered, which is final/);
    expect(refused.body.errors[0].field).toBe('status');
  });

  it('refuses an order for an unknown or deleted user, or unknown products', async () => {
    const unknownUser = await app.request('POST', '/orders', { userId: '00000000-0000-4000-8000-000000000000', lines: [] });
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body.errors[0].field).toBe('userId');
    const unknownProduct = await app.request('POST', '/orders', {
      userId,
      lines: [
        { productId: kettle, quantity: 1 },
        { productId: '00000000-0000-4000-8000-000000000000', quantity: 1 },
      ],
    });
    expect(unknownProduct.status).toBe(422);
    expect(unknownProduct.body.errors[0].field).toBe('lines.1.productId');
    const gone = (await app.request('POST', '/users', { name: 'Gone', email: 'gone@example.com' })).body.userId;
    await app.request('DELETE', `/users/${gone}`);
    const deletedUser = await app.request('POST', '/orders', { userId: gone, lines: [] });
    expect(deletedUser.status).toBe(422);
    expect(deletedUser.body.detail).toMatch(/deleted/);
  });

  it('keeps the price a product was added at', async () => {
    const product = (await app.request('POST', '/products', { name: 'Lamp', price: { amount: 1000, currency: 'EUR' } })).body.productId;
    const order = (await app.request('POST', '/orders', { userId, lines: [{ productId: product, quantity: 1 }] })).body;
    await app.request('PATCH', `/products/${product}`, { price: { amount: 1500, currency: 'EUR' } });
    const changed = await app.request('PATCH', `/orders/${order.orderId}`, {
      lines: [
        { productId: product, quantity: 3 },
        { productId: mug, quantity: 1 },
      ],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.lines.map((l: { unitPrice: { amount: number } }) => l.unitPrice.amount)).toEqual([1000, 450]);
    expect(changed.body.total).toEqual({ amount: 3450, currency: 'EUR' });
  });

  it('refuses to change lines of a placed order and to delete it, with reasons', async () => {
    const order = (await app.request('POST', '/orders', { userId, lines: [{ productId: mug, quantity: 1 }] })).body;
    const path = `/orders/${order.orderId}`;
    expect((await app.request('PATCH', path, { status: 'placed' })).status).toBe(200);
    const lines = await app.request('PATCH', path, { lines: [{ productId: mug, quantity: 2 }] });
    expect(lines.status).toBe(409);
    expect(lines.body.detail).toMatch(/only a draft order's lines can change/);
    const removed = await app.request('DELETE', path);
    expect(removed.status).toBe(409);
    expect(removed.body.detail).toMatch(/cancel it before deleting it/);
    expect((await app.request('PATCH', path, { status: 'cancelled' })).status).toBe(200);
    expect((await app.request('DELETE', path)).status).toBe(200);
    expect((await app.request('DELETE', path)).status).toBe(410);
  });

  it('serves v1 orders with decimal amounts and deprecation headers', async () => {
    const reply = await app.request('POST', '/v1/orders', { userId, lines: [{ productId: kettle, quantity: 3 }] });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      orderId: expect.any(String),
      userId,
      status: 'draft',
      lines: [{ productId: kettle, quantity: 3, unitPrice: 29.99 }],
      total: 89.97,
      currency: 'EUR',
    });
    expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(reply.headers.get('link')).toContain(`</v2/orders>; rel="successor-version"`);
  });

  it('replaces an order with PUT on v2', async () => {
    const order = (await app.request('POST', '/v2/orders', { userId })).body;
    const replaced = await app.request('PUT', `/v2/orders/${order.orderId}`, {
      userId,
      lines: [{ productId: mug, quantity: 2 }],
      status: 'placed',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ status: 'placed', total: { amount: 900, currency: 'EUR' }, version: 1 });
    const otherUser = await app.request('PUT', `/v2/orders/${order.orderId}`, { userId: mug, lines: [], status: 'placed' });
    expect(otherUser.status).toBe(422);
    expect(otherUser.body.errors[0].field).toBe('userId');
  });
});
