// An entity's history over HTTP (docs/api.md#history): each change, newest first, with when, who,
// which request and what each field was before and after; cursor pages; the entity's own access
// rule; an erased person shown as erased, with nothing of them left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app?.close());

/** A read once the read models hold the write at `position`. */
const after = (position: number) => ({ 'Wait-For-Position': String(position) });

/** Another customer, signed in on a client of their own. */
const customer = () => signedInUser(app.url);

describe('a product’s history', () => {
  let productId: string;
  let last: number;
  const correlationIds: string[] = [];

  beforeAll(async () => {
    const write = async (method: string, path: string, body?: unknown) => {
      const reply = await app.request(method, path, body);
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      correlationIds.push(reply.headers.get('x-correlation-id')!);
      last = Number(reply.headers.get('event-position'));
      return reply.body;
    };
    productId = (await write('POST', '/products', { name: 'Kettle', price: { amount: 2999, currency: 'EUR' } })).productId;
    await write('PATCH', `/products/${productId}`, { price: { amount: 2799, currency: 'EUR' }, taxRate: 20 });
    await write('PATCH', `/products/${productId}`, { description: 'Boils' });
    await write('DELETE', `/products/${productId}`);
  });

  it('lists each change, newest first: when, who, which request, each field before and after', async () => {
    const reply = await app.request('GET', `/products/${productId}/history`, undefined, after(last));
    expect(reply.status).toBe(200);
    const { items, nextCursor } = reply.body;
    expect(nextCursor).toBeNull();
    expect(items.map((i: { event: string; revision: number }) => [i.revision, i.event])).toEqual([
      [3, 'product:deleted'],
      [2, 'product:updated'],
      [1, 'product:updated'],
      [0, 'product:created'],
    ]);
    expect(items.map((i: { correlationId: string }) => i.correlationId)).toEqual([...correlationIds].reverse());
    // An admin reads who made each change by name.
    const adminName = (await app.request('GET', `/users/${app.admin.userId}`)).body.name;
    expect(adminName).toEqual(expect.any(String));
    for (const item of items) expect(item.actor).toEqual({ type: 'user', userId: app.admin.userId, erased: false, name: adminName });
    expect(items[1].changes).toEqual([{ field: 'description', before: '', after: 'Boils' }]);
    expect(items[2].changes).toEqual([
      { field: 'price', before: { amount: 2999, currency: 'EUR' }, after: { amount: 2799, currency: 'EUR' } },
      { field: 'taxRate', before: null, after: 20 },
    ]);
    expect(items[0].changes).toEqual([{ field: 'status', before: 'active', after: 'deleted' }]);
    expect(items[3].changes).toContainEqual({ field: 'name', before: null, after: 'Kettle' });
    expect(items[3].changes).toContainEqual({ field: 'status', before: null, after: 'active' });
    expect(items[3].changes.map((c: { field: string }) => c.field)).not.toContain('productId');
  });

  it('pages with a cursor to the first change, and refuses a cursor it did not give for this product', async () => {
    const seen: number[] = [];
    let cursor: string | null | undefined;
    do {
      const reply = await app.request('GET', `/products/${productId}/history?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(reply.status).toBe(200);
      seen.push(...reply.body.items.map((i: { revision: number }) => i.revision));
      cursor = reply.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([3, 2, 1, 0]);

    const first = await app.request('GET', `/products/${productId}/history?limit=1`);
    const other = (await app.request('POST', '/products', { name: 'Mug', price: { amount: 450, currency: 'EUR' } })).body.productId;
    const mixed = await app.request('GET', `/products/${other}/history?cursor=${first.body.nextCursor}`);
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].field).toBe('cursor');
    // One whole character of the signature changed: its last characters carry padding bits a
    // decoder may ignore, so changing those could leave the same signature (one run in ~256).
    const [payload, signature] = (first.body.nextCursor as string).split('.') as [string, string];
    const altered = `${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const forged = await app.request('GET', `/products/${productId}/history?cursor=${altered}`);
    expect(forged.status).toBe(400);
    expect((await app.request('GET', `/products/${productId}/history?limit=0`)).status).toBe(400);
  });

  it('is an admin’s: a customer and a stranger are refused, and an unknown product is not found', async () => {
    expect((await (await customer()).request('GET', `/products/${productId}/history`)).status).toBe(403);
    expect((await app.anonymous().request('GET', `/products/${productId}/history`)).status).toBe(401);
    expect((await app.request('GET', '/products/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
  });
});

describe('an order’s history', () => {
  it('is its customer’s and the admins’, and no one else’s', async () => {
    const buyer = await customer();
    const product = (await app.request('POST', '/products', { name: 'Pot', price: { amount: 1000, currency: 'EUR' } })).body.productId;
    const order = await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [{ productId: product, quantity: 1 }] });
    const placed = await buyer.request('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' });
    const path = `/orders/${order.body.orderId}/history`;
    const own = await buyer.request('GET', path, undefined, after(Number(placed.headers.get('event-position'))));
    expect(own.status).toBe(200);
    expect(own.body.items[0]).toMatchObject({
      event: 'order:updated',
      actor: { type: 'user', userId: buyer.userId, erased: false },
      changes: [{ field: 'status', before: 'draft', after: 'placed' }],
    });
    // The shop records the payment: its customer sees who by no name (the pages say "the shop"),
    // their own changes with their own; an admin sees both names.
    const paid = await app.request('PATCH', `/orders/${order.body.orderId}`, { status: 'paid' });
    const seen = await buyer.request('GET', path, undefined, after(Number(paid.headers.get('event-position'))));
    const [payment, placing] = seen.body.items;
    expect(payment.actor).toEqual({ type: 'user', userId: app.admin.userId, erased: false });
    expect(placing.actor.name).toEqual(expect.any(String));
    const byAdmin = (await app.request('GET', path)).body.items;
    expect([byAdmin[0].actor.name, byAdmin[1].actor.name]).toEqual([expect.any(String), placing.actor.name]);
    expect((await app.request('GET', path)).status).toBe(200);
    // Another customer: the order does not exist for them, nor its history.
    expect((await (await customer()).request('GET', path)).status).toBe(404);
  });
});

describe('a user’s history', () => {
  it('is their own; once they are erased it shows them as erased, with nothing of theirs left', async () => {
    const person = await customer();
    const renamed = await person.request('PATCH', `/users/${person.userId}`, { name: 'Renamed Person' });
    expect(renamed.status).toBe(200);
    const own = await person.request(
      'GET',
      `/users/${person.userId}/history`,
      undefined,
      after(Number(renamed.headers.get('event-position'))),
    );
    expect(own.status).toBe(200);
    expect(own.body.items[0].changes).toEqual([{ field: 'name', before: expect.any(String), after: 'Renamed Person' }]);
    // Another user is answered as for the user itself: there is no such user for them.
    const stranger = await customer();
    expect((await stranger.request('GET', `/users/${person.userId}/history`)).status).toBe(404);
    expect((await stranger.request('GET', `/users/${person.userId}`)).status).toBe(404);

    const gone = await person.request('DELETE', `/users/${person.userId}`);
    expect(gone.status).toBe(200);
    const history = await app.request(
      'GET',
      `/users/${person.userId}/history`,
      undefined,
      after(Number(gone.headers.get('event-position'))),
    );
    expect(history.status).toBe(200);
    const text = JSON.stringify(history.body);
    expect(text).not.toContain('Renamed Person');
    expect(text).not.toContain('@example.test');
    expect(history.body.items[0]).toMatchObject({ event: 'user:deleted', actor: { type: 'user', userId: person.userId, erased: true } });
    expect(history.body.items.find((i: { event: string }) => i.event === 'user:updated').changes).toEqual([]);
  });
});
