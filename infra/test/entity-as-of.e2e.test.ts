// Reading one entity as it was (`?at=`, docs/api.md#as-of): folded from its events up to a
// position or a time, under the entity's own access rule; a moment the store has not reached, or
// an `at` that is neither, is a 400 naming `at`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app?.close());

const positionOf = (reply: { headers: Headers }) => Number(reply.headers.get('event-position'));

/** Another customer, signed in on a client of their own. */
const customer = () => signedInUser(app.url);

describe('a product as it was', () => {
  it('answers each moment of its life by position and by time, and not before or after it', async () => {
    const created = await app.request('POST', '/products', { name: 'Kettle', price: { amount: 2999, currency: 'EUR' } });
    const path = `/products/${created.body.productId}`;
    const changed = await app.request('PATCH', path, { price: { amount: 2799, currency: 'EUR' }, taxRate: 20 });
    const deleted = await app.request('DELETE', path);

    const atCreation = await app.anonymous().request('GET', `${path}?at=${positionOf(created)}`);
    expect(atCreation.status).toBe(200);
    expect(atCreation.headers.get('etag')).toBe('"0"');
    expect(atCreation.body).toMatchObject({ price: { amount: 2999, currency: 'EUR' }, taxRate: null, version: 0 });
    const atChange = await app.anonymous().request('GET', `${path}?at=${positionOf(changed)}`);
    expect(atChange.body).toMatchObject({ price: { amount: 2799, currency: 'EUR' }, taxRate: 20, version: 1 });
    // By time: the change's own time is the moment it took effect.
    const byTime = await app.anonymous().request('GET', `${path}?at=${encodeURIComponent(changed.body.updatedAt)}`);
    expect(byTime.body).toMatchObject({ price: { amount: 2799, currency: 'EUR' }, version: 1 });
    expect((await app.anonymous().request('GET', `${path}?at=${positionOf(deleted)}`)).status).toBe(410);
    expect((await app.anonymous().request('GET', `${path}?at=${positionOf(created) - 1}`)).status).toBe(404);
  });

  it('refuses, naming at, a moment the store has not reached and what is no moment', async () => {
    const created = await app.request('POST', '/products', { name: 'Mug', price: { amount: 450, currency: 'EUR' } });
    const path = `/products/${created.body.productId}`;
    for (const [at, says] of [
      ['999999999999999', 'past the last event'],
      ['2999-01-01T00:00:00Z', 'in the future'],
      ['yesterday', 'a position'],
      ['0', 'a position'],
      ['2026-11-27', 'a position'],
    ] as const) {
      const refused = await app.anonymous().request('GET', `${path}?at=${encodeURIComponent(at)}`);
      expect(refused.status, at).toBe(400);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body.errors[0].field, at).toBe('at');
      expect(refused.body.errors[0].message, at).toContain(says);
    }
  });
});

describe('an order and a user as they were', () => {
  it('answers under the entity’s own rule: the customer and admins for an order, the user for themselves', async () => {
    const buyer = await customer();
    const product = (await app.request('POST', '/products', { name: 'Pot', price: { amount: 1000, currency: 'EUR' } })).body.productId;
    const order = await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [{ productId: product, quantity: 1 }] });
    const placed = await buyer.request('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' });
    const path = `/orders/${order.body.orderId}?at=${positionOf(order)}`;
    // Who may see the order is read from the read models: the first read waits for them to hold it.
    const reading = { 'Wait-For-Position': String(positionOf(placed)) };
    expect((await buyer.request('GET', path, undefined, reading)).body).toMatchObject({ status: 'draft', version: 0 });
    expect((await app.request('GET', path)).body).toMatchObject({ status: 'draft' });
    expect((await (await customer()).request('GET', path)).status).toBe(404);

    const renamed = await buyer.request('PATCH', `/users/${buyer.userId}`, { name: 'Renamed Buyer' });
    const before = await buyer.request('GET', `/users/${buyer.userId}?at=${positionOf(renamed) - 1}`);
    expect(before.status).toBe(200);
    expect(before.body.name).not.toBe('Renamed Buyer');
    // Every version of the path takes it, in its own representation.
    expect((await buyer.request('GET', `/v1/users/${buyer.userId}?at=${positionOf(renamed)}`)).body.name).toBe('Renamed Buyer');
    expect((await (await customer()).request('GET', `/users/${buyer.userId}?at=${positionOf(renamed)}`)).status).toBe(404);
  });
});
