import { describe, it } from 'vitest';
import { ORDER_STATUSES, type OrderLine, type OrderStatus } from '@eventide/kernel/entities/order.ts';
import { ORDER_STEPS } from '@eventide/kernel/models/order/life-cycle.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { deciderSpec } from '../testing/given.ts';
import type { OrderEvent } from '@eventide/kernel/models/order/state.ts';
import { orderAggregate } from './decide.ts';

const given = deciderSpec(orderAggregate);
const orderId = '9a1f7c52-2b1e-4a86-8f6e-3c2d1e0f9a21';
const userId = '0b7c6c6e-6a40-4d7e-9a4f-1f6f0c6a1a01';
const kettle: OrderLine = { productId: 'a0000000-0000-4000-8000-000000000001', quantity: 2, unitPrice: { amount: 2999, currency: 'EUR' } };
const mug: OrderLine = { productId: 'a0000000-0000-4000-8000-000000000002', quantity: 1, unitPrice: { amount: 500, currency: 'EUR' } };
const dollarMug: OrderLine = { ...mug, unitPrice: { amount: 500, currency: 'USD' } };

const created: OrderEvent = { type: 'order:created', data: { orderId, userId, lines: [kettle], status: 'draft', payment: null } };
const emptyDraft: OrderEvent = { type: 'order:created', data: { orderId, userId, lines: [], status: 'draft', payment: null } };
const to = (status: OrderStatus): OrderEvent => ({ type: 'order:updated', data: { orderId, changes: { status } } });
const deleted: OrderEvent = { type: 'order:deleted', data: { orderId } };

const customer: Principal = { type: 'user', userId, admin: false };
const admin: Principal = { type: 'user', userId: 'ad000000-0000-4000-8000-00000000000a', admin: true };
const stranger: Principal = { type: 'user', userId: 'c0000000-0000-4000-8000-00000000000c', admin: false };
const by = customer;

describe('order decider', () => {
  describe('CreateOrder', () => {
    it('creates a draft order', () =>
      given()
        .when({ type: 'CreateOrder', by, orderId, userId, lines: [kettle] })
        .then([created]));
    it('creates an empty draft', () => given().when({ type: 'CreateOrder', by, orderId, userId, lines: [] }).then([emptyDraft]));
    it("lets an admin create a customer's order", () =>
      given()
        .when({ type: 'CreateOrder', by: admin, orderId, userId, lines: [kettle] })
        .then([created]));
    it('refuses an order for someone else, as if they did not exist', () =>
      given()
        .when({ type: 'CreateOrder', by: stranger, orderId, userId, lines: [] })
        .thenRefuses('unprocessable', /no user has this id/, 'userId'));
    it('refuses when the order exists', () =>
      given(created)
        .when({ type: 'CreateOrder', by, orderId, userId, lines: [] })
        .thenRefuses('conflict', /already exists/));
    it('refuses a product on two lines', () =>
      given()
        .when({ type: 'CreateOrder', by, orderId, userId, lines: [kettle, kettle] })
        .thenRefuses('unprocessable', /already on another line/, 'lines.1.productId'));
    it('refuses lines in two currencies', () =>
      given()
        .when({ type: 'CreateOrder', by, orderId, userId, lines: [kettle, dollarMug] })
        .thenRefuses('unprocessable', /priced in USD/, 'lines.1.productId'));
  });

  describe('ChangeOrder', () => {
    it("changes a draft's lines", () =>
      given(created)
        .when({ type: 'ChangeOrder', by, changes: { lines: [kettle, mug] } })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [kettle, mug] } } }]));
    it('places a draft that has lines', () =>
      given(created)
        .when({ type: 'ChangeOrder', by, changes: { status: 'placed' } })
        .then([to('placed')]));
    it('sets lines and places in one change', () =>
      given(emptyDraft)
        .when({ type: 'ChangeOrder', by, changes: { lines: [kettle], status: 'placed' } })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [kettle], status: 'placed' } } }]));
    it('records nothing when nothing changes', () =>
      given(created)
        .when({ type: 'ChangeOrder', by, changes: { lines: [kettle], status: 'draft' } })
        .thenNothing());
    it('refuses to place an order without lines', () =>
      given(emptyDraft)
        .when({ type: 'ChangeOrder', by, changes: { status: 'placed' } })
        .thenRefuses('invalid-transition', /at least one line/, 'status'));
    it('refuses new lines once placed', () =>
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by, changes: { lines: [mug] } })
        .thenRefuses('conflict', /only a draft/, 'lines'));
    it('refuses lines in two currencies', () =>
      given(created)
        .when({ type: 'ChangeOrder', by, changes: { lines: [kettle, dollarMug] } })
        .thenRefuses('unprocessable', /priced in USD/));
    it('refuses to skip a step', () =>
      given(created)
        .when({ type: 'ChangeOrder', by, changes: { status: 'paid' } })
        .thenRefuses('invalid-transition', /cannot go from draft to paid/, 'status'));
    it("says which steps there are, and whose they are when they are not the caller's", () =>
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: customer, changes: { status: 'shipped' } })
        .thenRefuses('invalid-transition', /from placed it can go to paid \(set by an admin\) or cancelled$/, 'status'));
    it('refuses to cancel a shipped order', () =>
      given(created, to('placed'), to('paid'), to('shipped'))
        .when({ type: 'ChangeOrder', by, changes: { status: 'cancelled' } })
        .thenRefuses('invalid-transition', /shipped, so it can no longer be cancelled/));
    it('refuses any change of status once final', () =>
      given(created, to('cancelled'))
        .when({ type: 'ChangeOrder', by, changes: { status: 'draft' } })
        .thenRefuses('invalid-transition', /cancelled, which is final/));
    it('refuses a payment recorded by the customer: an admin records it', () =>
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: customer, changes: { status: 'paid' } })
        .thenRefuses('forbidden', /marked paid by an admin only/, 'status'));
    it('records a payment, a shipment and a delivery made by an admin', () => {
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'paid' } })
        .then([to('paid')]);
      given(created, to('placed'), to('paid'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'shipped' } })
        .then([to('shipped')]);
      given(created, to('placed'), to('paid'), to('shipped'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'delivered' } })
        .then([to('delivered')]);
    });
    it("records the payment with the step to paid: the order's total, how it was paid, its reference", () => {
      const payment = { amount: { amount: 5998, currency: 'EUR' }, method: 'bank-transfer' as const, reference: 'TX-1' };
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'paid', payment } })
        .then([{ type: 'order:updated', data: { orderId, changes: { status: 'paid', payment } } }]);
    });
    it('refuses a payment of another sum or currency than the total, or one without the step to paid', () => {
      const payment = (amount: number, currency = 'EUR') => ({ amount: { amount, currency }, method: 'card' as const, reference: null });
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'paid', payment: payment(5000) } })
        .thenRefuses('unprocessable', /must be the order's total: 5998 in EUR/, 'payment.amount');
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: admin, changes: { status: 'paid', payment: payment(5998, 'USD') } })
        .thenRefuses('unprocessable', /must be the order's total/, 'payment.amount');
      given(created, to('placed'), to('paid'))
        .when({ type: 'ChangeOrder', by: admin, changes: { payment: payment(5998) } })
        .thenRefuses('unprocessable', /is recorded with the step to paid/, 'payment');
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', by: customer, changes: { status: 'paid', payment: payment(5998) } })
        .thenRefuses('forbidden', /marked paid by an admin only/, 'status');
    });
    it("refuses someone else's order as if it did not exist, whatever its state", () => {
      given(created)
        .when({ type: 'ChangeOrder', by: stranger, changes: { status: 'cancelled' } })
        .thenRefuses('not-found', /does not exist/);
      given(created, deleted)
        .when({ type: 'ChangeOrder', by: stranger, changes: { status: 'placed' } })
        .thenRefuses('not-found', /does not exist/);
    });
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'ChangeOrder', by, changes: { status: 'placed' } })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a deleted order', () =>
      given(created, deleted)
        .when({ type: 'ChangeOrder', by, changes: { status: 'placed' } })
        .thenRefuses('gone', /deleted/));
  });

  describe('ReplaceOrder', () => {
    it('replaces lines and status', () =>
      given(emptyDraft)
        .when({ type: 'ReplaceOrder', by, userId, lines: [mug], status: 'placed' })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [mug], status: 'placed' } } }]));
    it("refuses to change the order's user", () =>
      given(created)
        .when({ type: 'ReplaceOrder', by, userId: 'b0000000-0000-4000-8000-000000000009', lines: [kettle], status: 'draft' })
        .thenRefuses('unprocessable', /user cannot change/, 'userId'));
    it('refuses a status the actor may not set, as a change does', () =>
      given(created, to('placed'))
        .when({ type: 'ReplaceOrder', by, userId, lines: [kettle], status: 'paid' })
        .thenRefuses('forbidden', /by an admin only/, 'status'));
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'ReplaceOrder', by, userId, lines: [], status: 'draft' })
        .thenRefuses('not-found', /does not exist/));
    it('refuses a deleted order', () =>
      given(created, deleted)
        .when({ type: 'ReplaceOrder', by, userId, lines: [], status: 'draft' })
        .thenRefuses('gone', /deleted/));
  });

  describe('DeleteOrder', () => {
    it('deletes a draft', () => given(created).when({ type: 'DeleteOrder', by }).then([deleted]));
    it('deletes a cancelled order', () => given(created, to('cancelled')).when({ type: 'DeleteOrder', by }).then([deleted]));
    it('refuses to delete a placed order', () =>
      given(created, to('placed'))
        .when({ type: 'DeleteOrder', by })
        .thenRefuses('invalid-transition', /cancel it before deleting/));
    it("refuses someone else's order as if it did not exist", () =>
      given(created)
        .when({ type: 'DeleteOrder', by: stranger })
        .thenRefuses('not-found', /does not exist/));
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'DeleteOrder', by })
        .thenRefuses('not-found', /does not exist/));
    it('refuses an order deleted already', () =>
      given(created, deleted)
        .when({ type: 'DeleteOrder', by })
        .thenRefuses('gone', /deleted/));
  });

  describe('the life cycle', () => {
    const history: Record<OrderStatus, OrderEvent[]> = {
      draft: [created],
      placed: [created, to('placed')],
      paid: [created, to('placed'), to('paid')],
      shipped: [created, to('placed'), to('paid'), to('shipped')],
      delivered: [created, to('placed'), to('paid'), to('shipped'), to('delivered')],
      cancelled: [created, to('cancelled')],
    };
    it('takes exactly the steps the life cycle gives each role, and no other status change', () => {
      for (const [who, role] of [
        [customer, 'customer'],
        [admin, 'admin'],
      ] as const) {
        for (const from of ORDER_STATUSES) {
          for (const target of ORDER_STATUSES) {
            if (target === from) continue;
            const step = ORDER_STEPS.find((s) => s.to === target && s.from.includes(from));
            const run = given(...history[from]).when({ type: 'ChangeOrder', by: who, changes: { status: target } });
            if (step?.by.includes(role)) run.then([to(target)]);
            else run.thenRefuses(step ? 'forbidden' : 'invalid-transition', /./, 'status');
          }
        }
      }
    });
  });
});
