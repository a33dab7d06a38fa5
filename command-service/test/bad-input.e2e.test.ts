// Every kind of bad input gets a 4xx problem that names the field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Reply, type TestApp } from './harness.ts';

let app: TestApp;
let userId: string;
beforeAll(async () => {
  app = await startTestApp({ bodyLimit: 4096 });
  userId = (await app.request('POST', '/users', { name: 'Ann', email: 'bad-input@example.com' })).body.userId;
});
afterAll(() => app.close());

const json = { 'content-type': 'application/json' };

async function expectRefused(send: () => Promise<Reply>, status: number, field: string) {
  const before = await app.eventCount();
  const reply = await send();
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toContain('application/problem+json');
  expect(reply.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(reply.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  expect(reply.body.detail).toContain(field);
  expect(await app.eventCount()).toBe(before);
  return reply;
}

describe('bad input to the command service', () => {
  it('malformed JSON is a 400', () => expectRefused(() => app.raw('POST', '/users', '{"name": "A",', json), 400, '(body)'));
  it('an empty body is a 400', () => expectRefused(() => app.raw('POST', '/users', '', json), 400, '(body)'));
  it('a body that is not an object is a 400', () => expectRefused(() => app.request('POST', '/users', ['a']), 400, '(body)'));
  it('a JSON null body is a 400', () => expectRefused(() => app.raw('POST', '/users', 'null', json), 400, '(body)'));
  it('a wrong type is a 400 naming the field', () =>
    expectRefused(() => app.request('POST', '/users', { name: 42, email: 'a@b.co' }), 400, 'name'));
  it('a missing field is a 400 naming it', () => expectRefused(() => app.request('POST', '/users', { name: 'A' }), 400, 'email'));
  it('an unknown field is a 400 naming it', () =>
    expectRefused(() => app.request('POST', '/users', { name: 'A', email: 'a@b.co', role: 'admin' }), 400, 'role'));
  it('a __proto__ key is an unknown field', () =>
    expectRefused(() => app.raw('POST', '/users', '{"name":"A","email":"p@b.co","__proto__":{"x":1}}', json), 400, '__proto__'));
  it('an operator-like value is a 400 naming the field', () =>
    expectRefused(() => app.request('POST', '/users', { name: 'A', email: { $ne: null } }), 400, 'email'));
  it('an operator-like value in a change is a 400', () =>
    expectRefused(() => app.request('PATCH', `/users/${userId}`, { name: { $gt: '' } }), 400, 'name'));
  it('an empty change is a 400', () => expectRefused(() => app.request('PATCH', `/users/${userId}`, {}), 400, '(body)'));
  it('an oversized body is a 413', () =>
    expectRefused(() => app.request('POST', '/users', { name: 'A'.repeat(5000), email: 'a@b.co' }), 413, '(body)'));
  it('an oversized body sent without Content-Length is a 413', async () => {
    const before = await app.eventCount();
    const big = JSON.stringify({ name: 'A'.repeat(5000), email: 'a@b.co' });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${app.url}/users`, { method: 'POST', headers: json, body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await app.eventCount()).toBe(before);
  });
  it('a body that is not JSON is a 415', () =>
    expectRefused(() => app.raw('POST', '/users', 'name=A', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'Content-Type'));
  it('a body without a content type is a 415', () => expectRefused(() => app.raw('POST', '/users', '{}', {}), 415, 'Content-Type'));
  it('an invalid email is a 400', () =>
    expectRefused(() => app.request('POST', '/users', { name: 'A', email: 'not-an-email' }), 400, 'email'));
  it('a blank name is a 400', () => expectRefused(() => app.request('POST', '/users', { name: '   ', email: 'a@b.co' }), 400, 'name'));
  it('a bad Idempotency-Key is a 400', () =>
    expectRefused(
      () => app.request('POST', '/users', { name: 'A', email: 'k@b.co' }, { 'Idempotency-Key': 'a b' }),
      400,
      'Idempotency-Key',
    ));
  it('a negative or fractional price is a 400 naming price.amount', async () => {
    await expectRefused(() => app.request('POST', '/products', { name: 'P', price: { amount: -1, currency: 'EUR' } }), 400, 'price.amount');
    await expectRefused(
      () => app.request('POST', '/products', { name: 'P', price: { amount: 1.5, currency: 'EUR' } }),
      400,
      'price.amount',
    );
  });
  it('a lowercase currency is a 400 naming price.currency', () =>
    expectRefused(() => app.request('POST', '/products', { name: 'P', price: { amount: 1, currency: 'eur' } }), 400, 'price.currency'));
  it('an operator in an order line is a 400 naming it', () =>
    expectRefused(
      () => app.request('POST', '/orders', { userId, lines: [{ productId: { $ne: null }, quantity: 1 }] }),
      400,
      'lines.0.productId',
    ));
  it('a zero quantity is a 400 naming it', () =>
    expectRefused(() => app.request('POST', '/orders', { userId, lines: [{ productId: userId, quantity: 0 }] }), 400, 'lines.0.quantity'));
  it('an unknown status is a 400 naming it', async () => {
    const order = await app.request('POST', '/orders', { userId });
    await expectRefused(() => app.request('PATCH', `/orders/${order.body.orderId}`, { status: 'teleported' }), 400, 'status');
  });
  it('any body to an order that does not exist is a 404: what the path names is checked first', async () => {
    const reply = await app.request('PATCH', `/orders/${userId}`, { status: 'teleported' });
    expect(reply.status).toBe(404);
    expect(reply.body.detail).toBe(`order ${userId} does not exist`);
  });

  it('an unknown id is a 404 problem', async () => {
    const reply = await app.request('DELETE', '/products/00000000-0000-4000-8000-000000000000');
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
  });
  it('an unknown path is a 404 problem', async () => {
    const reply = await app.request('GET', '/nowhere');
    expect(reply.status).toBe(404);
    expect(reply.body.type).toBe('/problems/not-found');
  });
  it('a method a path does not support is a 405 with Allow', async () => {
    const reply = await app.request('PUT', '/users');
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toContain('POST');
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
  });
});
