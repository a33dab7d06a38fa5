import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderLine, type OrderStatus } from '@eventide/shared/events/catalogue.ts';
import { deciderSpec } from '../testing/given.ts';
import type { OrderEvent } from '@eventide/shared/models/order/state.ts';
import { orderAggregate } from './decide.ts';
import { TRANSITIONS, transitionRefusal } from './status.ts';

const given = deciderSpec(orderAggregate);
const orderId = '9a1f7c52-2b1e-4a86-8f6e-3c2d1e0f9a21';
const userId = '0b7c6c6e-6a40-4d7e-9a4f-1f6f0c6a1a01';
const kettle: OrderLine = { productId: 'a0000000-0000-4000-8000-000000000001', quantity: 2, unitPrice: { amount: 2999, currency: 'EUR' } };
const mug: OrderLine = { productId: 'a0000000-0000-4000-8000-000000000002', quantity: 1, unitPrice: { amount: 500, currency: 'EUR' } };
const dollarMug: OrderLine = { ...mug, unitPrice: { amount: 500, currency: 'USD' } };

const created: OrderEvent = { type: 'order:created', data: { orderId, userId, lines: [kettle], status: 'draft' } };
const emptyDraft: OrderEvent = { type: 'order:created', data: { orderId, userId, lines: [], status: 'draft' } };
const to = (status: OrderStatus): OrderEvent => ({ type: 'order:updated', data: { orderId, changes: { status } } });
const deleted: OrderEvent = { type: 'order:deleted', data: { orderId } };

describe('order decider', () => {
  describe('CreateOrder', () => {
    it('creates a draft order', () =>
      given()
        .when({ type: 'CreateOrder', orderId, userId, lines: [kettle] })
        .then([created]));
    it('creates an empty draft', () => given().when({ type: 'CreateOrder', orderId, userId, lines: [] }).then([emptyDraft]));
    it('refuses when the order exists', () =>
      given(created)
        .when({ type: 'CreateOrder', orderId, userId, lines: [] })
        .thenRefuses(409, /already exists/));
    it('refuses a product on two lines', () =>
      given()
        .when({ type: 'CreateOrder', orderId, userId, lines: [kettle, kettle] })
        .thenRefuses(422, /already on another line/, 'lines.1.productId'));
    it('refuses lines in two currencies', () =>
      given()
        .when({ type: 'CreateOrder', orderId, userId, lines: [kettle, dollarMug] })
        .thenRefuses(422, /priced in USD/, 'lines.1.productId'));
  });

  describe('ChangeOrder', () => {
    it("changes a draft's lines", () =>
      given(created)
        .when({ type: 'ChangeOrder', changes: { lines: [kettle, mug] } })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [kettle, mug] } } }]));
    it('places a draft that has lines', () =>
      given(created)
        .when({ type: 'ChangeOrder', changes: { status: 'placed' } })
        .then([to('placed')]));
    it('sets lines and places in one change', () =>
      given(emptyDraft)
        .when({ type: 'ChangeOrder', changes: { lines: [kettle], status: 'placed' } })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [kettle], status: 'placed' } } }]));
    it('records nothing when nothing changes', () =>
      given(created)
        .when({ type: 'ChangeOrder', changes: { lines: [kettle], status: 'draft' } })
        .thenNothing());
    it('refuses to place an order without lines', () =>
      given(emptyDraft)
        .when({ type: 'ChangeOrder', changes: { status: 'placed' } })
        .thenRefuses(409, /at least one line/, 'status'));
    it('refuses new lines once placed', () =>
      given(created, to('placed'))
        .when({ type: 'ChangeOrder', changes: { lines: [mug] } })
        .thenRefuses(409, /only a draft/, 'lines'));
    it('refuses lines in two currencies', () =>
      given(created)
        .when({ type: 'ChangeOrder', changes: { lines: [kettle, dollarMug] } })
        .thenRefuses(422, /priced in USD/));
    it('refuses to skip a step', () =>
      given(created)
        .when({ type: 'ChangeOrder', changes: { status: 'paid' } })
        .thenRefuses(409, /cannot go from draft to paid/, 'status'));
    it('refuses to cancel a shipped order', () =>
      given(created, to('placed'), to('paid'), to('shipped'))
        .when({ type: 'ChangeOrder', changes: { status: 'cancelled' } })
        .thenRefuses(409, /shipped, so it can no longer be cancelled/));
    it('refuses any change of status once final', () =>
      given(created, to('cancelled'))
        .when({ type: 'ChangeOrder', changes: { status: 'draft' } })
        .thenRefuses(409, /cancelled, which is final/));
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'ChangeOrder', changes: { status: 'placed' } })
        .thenRefuses(404, /does not exist/));
    it('refuses a deleted order', () =>
      given(created, deleted)
        .when({ type: 'ChangeOrder', changes: { status: 'placed' } })
        .thenRefuses(410, /deleted/));
  });

  describe('ReplaceOrder', () => {
    it('replaces lines and status', () =>
      given(emptyDraft)
        .when({ type: 'ReplaceOrder', userId, lines: [mug], status: 'placed' })
        .then([{ type: 'order:updated', data: { orderId, changes: { lines: [mug], status: 'placed' } } }]));
    it("refuses to change the order's user", () =>
      given(created)
        .when({ type: 'ReplaceOrder', userId: 'b0000000-0000-4000-8000-000000000009', lines: [kettle], status: 'draft' })
        .thenRefuses(422, /user cannot change/, 'userId'));
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'ReplaceOrder', userId, lines: [], status: 'draft' })
        .thenRefuses(404, /does not exist/));
    it('refuses a deleted order', () =>
      given(created, deleted)
        .when({ type: 'ReplaceOrder', userId, lines: [], status: 'draft' })
        .thenRefuses(410, /deleted/));
  });

  describe('DeleteOrder', () => {
    it('deletes a draft', () => given(created).when({ type: 'DeleteOrder' }).then([deleted]));
    it('deletes a cancelled order', () => given(created, to('cancelled')).when({ type: 'DeleteOrder' }).then([deleted]));
    it('refuses to delete a placed order', () =>
      given(created, to('placed'))
        .when({ type: 'DeleteOrder' })
        .thenRefuses(409, /cancel it before deleting/));
    it('refuses an unknown order', () =>
      given()
        .when({ type: 'DeleteOrder' })
        .thenRefuses(404, /does not exist/));
    it('refuses an order deleted already', () =>
      given(created, deleted)
        .when({ type: 'DeleteOrder' })
        .thenRefuses(410, /deleted/));
  });

  describe('status machine', () => {
    it('allows exactly the documented transitions', () => {
      for (const from of ORDER_STATUSES) {
        for (const target of ORDER_STATUSES) {
          const allowed = from === target || TRANSITIONS[from].includes(target);
          expect(transitionRefusal(from, target, 1) === undefined, `${from} -> ${target}`).toBe(allowed);
        }
      }
    });
  });
});
