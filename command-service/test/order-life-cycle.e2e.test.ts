// Every (state, step, actor) triple against the server: an order in each status (and deleted),
// asked by its customer, an admin and a stranger to go to each status, and to be deleted, answers
// as the life cycle says (packages/kernel/src/models/order/life-cycle.ts). The expectations are worked out
// here from the life cycle's table of steps, not by calling the functions the server calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '@eventide/kernel/entities/order.ts';
import { DELETABLE_IN, ORDER_STEPS, type OrderRole } from '@eventide/kernel/models/order/life-cycle.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startTestApp, type TestApp } from './harness.ts';

type State = OrderStatus | 'deleted';
type Actor = OrderRole | 'stranger';
const STATES: State[] = [...ORDER_STATUSES, 'deleted'];
const ACTORS: Actor[] = ['customer', 'admin', 'stranger'];

let app: TestApp;
let customerId: string;
let product: string;
const clients = {} as Record<Actor, Pick<JsonClient, 'request'>>;

beforeAll(async () => {
  app = await startTestApp();
  product = (await app.request('POST', '/products', { name: 'Kettle', price: { amount: 2999, currency: 'EUR' } })).body.productId;
  const customer = app.anonymous();
  customerId = (await signUp(customer)).userId;
  const stranger = app.anonymous();
  await signUp(stranger);
  Object.assign(clients, { customer, admin: { request: app.request }, stranger });
});
afterAll(() => app.close());

/** How an admin brings a new order of the customer's to `state`: along the steps that lead there. */
const WAY: Record<State, OrderStatus[]> = {
  draft: [],
  placed: ['placed'],
  paid: ['placed', 'paid'],
  shipped: ['placed', 'paid', 'shipped'],
  delivered: ['placed', 'paid', 'shipped', 'delivered'],
  cancelled: ['cancelled'],
  deleted: ['cancelled'],
};

async function orderIn(state: State): Promise<string> {
  const created = await app.request('POST', '/orders', { userId: customerId, lines: [{ productId: product, quantity: 1 }] });
  expect(created.status).toBe(201);
  const path = `/orders/${created.body.orderId}`;
  for (const status of WAY[state]) expect((await app.request('PATCH', path, { status })).status).toBe(200);
  if (state === 'deleted') expect((await app.request('DELETE', path)).status).toBe(200);
  return path;
}

/** The answer the life cycle gives `actor` asking an order in `state` to go to `target`. */
function expectedStatus(state: State, target: OrderStatus, actor: Actor): number {
  if (actor === 'stranger') return 404;
  if (state === 'deleted') return 410;
  if (state === target) return 200;
  const step = ORDER_STEPS.find((s) => s.to === target && s.from.includes(state));
  if (!step) return 409;
  return step.by.includes(actor) ? 200 : 403;
}

describe('the order life cycle, as served', () => {
  for (const state of STATES) {
    for (const actor of ACTORS) {
      it(`answers a ${actor} on a ${state} order as the life cycle says, for every status and for a delete`, async () => {
        for (const target of ORDER_STATUSES) {
          const path = await orderIn(state);
          const before = await app.eventCount();
          const reply = await clients[actor].request('PATCH', path, { status: target });
          const expected = expectedStatus(state, target, actor);
          expect(reply.status, `${actor}: ${state} -> ${target}: ${reply.body?.detail}`).toBe(expected);
          if (expected === 200) expect(reply.body.status).toBe(target);
          if (expected === 403) {
            expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
            expect(reply.body).toMatchObject({ type: '/problems/forbidden', detail: `an order is marked ${target} by an admin only` });
            expect(reply.body.errors).toEqual([{ field: 'status', message: expect.stringContaining('admin') }]);
          }
          if (expected === 409) expect(reply.body.type).toBe('/problems/invalid-transition');
          // Refused (or already there): nothing was written.
          if (expected !== 200 || state === target) expect(await app.eventCount()).toBe(before);
        }
        const path = await orderIn(state);
        const deleted = await clients[actor].request('DELETE', path);
        const mayDelete = state !== 'deleted' && DELETABLE_IN.includes(state);
        expect(deleted.status, `${actor} deletes a ${state} order`).toBe(
          actor === 'stranger' ? 404 : state === 'deleted' ? 410 : mayDelete ? 200 : 409,
        );
      });
    }
  }

  it("refuses the customer's own payment, shipment and delivery with 403, saying why", async () => {
    const path = await orderIn('placed');
    const paid = await clients.customer.request('PATCH', path, { status: 'paid' });
    expect(paid.status).toBe(403);
    expect(paid.body.detail).toBe('an order is marked paid by an admin only');
  });
});

describe('the payment behind the step to paid', () => {
  it("records the order's total, how it was paid and its reference, and shows them on the order", async () => {
    const path = await orderIn('placed');
    const payment = { amount: { amount: 2999, currency: 'EUR' }, method: 'bank-transfer', reference: 'TX-0042' };
    const paid = await app.request('PATCH', path, { status: 'paid', payment });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', payment });
    // Recorded once: later steps keep it.
    const shipped = await app.request('PATCH', path, { status: 'shipped' });
    expect(shipped.body.payment).toEqual(payment);
    // Without a reference (cash), it is null.
    const cash = await app.request('PATCH', await orderIn('placed'), {
      status: 'paid',
      payment: { ...payment, method: 'cash', reference: undefined },
    });
    expect(cash.body.payment).toEqual({ ...payment, method: 'cash', reference: null });
  });

  it('refuses a payment of another sum, one without the step to paid, and a bad method, naming the field and writing nothing', async () => {
    const path = await orderIn('placed');
    const before = await app.eventCount();
    const payment = { amount: { amount: 2999, currency: 'EUR' }, method: 'card', reference: null };
    for (const [body, status, field] of [
      [{ status: 'paid', payment: { ...payment, amount: { amount: 100, currency: 'EUR' } } }, 422, 'payment.amount'],
      [{ status: 'paid', payment: { ...payment, amount: { amount: 2999, currency: 'USD' } } }, 422, 'payment.amount'],
      [{ payment }, 422, 'payment'],
      [{ status: 'paid', payment: { ...payment, method: 'iou' } }, 400, 'payment.method'],
      [{ status: 'paid', payment: { ...payment, reference: 'x'.repeat(101) } }, 400, 'payment.reference'],
    ] as const) {
      const reply = await app.request('PATCH', path, body);
      expect([reply.status, reply.body.errors?.[0]?.field], JSON.stringify(body)).toEqual([status, field]);
    }
    expect(await app.eventCount()).toBe(before);
    // The customer cannot record one: the step is the shop's.
    const byCustomer = await clients.customer.request('PATCH', path, { status: 'paid', payment });
    expect(byCustomer.status).toBe(403);
  });
});
