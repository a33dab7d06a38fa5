// The order, declared once (entity.ts says what derives from it): a user's order of product lines,
// priced when the lines were set, and its status. Unlike a product's, an order's API input is a
// command, not its details: a create names products and quantities (the command side prices
// them) and always starts a draft, and a status changes only by a step of its life cycle
// (models/order/life-cycle.ts). So the API's order bodies are the contract's (orders.ts), built
// from the rules declared here.
import { z } from 'zod';
import { declareEntity, detail, optionalDetail } from './entity.ts';
import { entityId, money } from './values.ts';
import { text } from '../text.ts';

export const ORDER_STATUSES = ['draft', 'placed', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export const orderStatus = z.enum(ORDER_STATUSES, { message: `must be one of ${ORDER_STATUSES.join(', ')}` });
export type OrderStatus = z.infer<typeof orderStatus>;

/** A line as events store it: priced when it was set. */
export const orderLine = z.strictObject({
  productId: entityId,
  quantity: z.number().int().positive(),
  unitPrice: money,
});
export type OrderLine = z.infer<typeof orderLine>;

export const MAX_ORDER_LINES = 100;
/** An id a client names: trimmed to nothing else, compared as the store keeps them (lower case). */
const namedId = z.string().min(1, 'must not be empty').max(64).toLowerCase();
/** A line as a client asks for it: which product, how many; the price is the product's when the order is written. */
export const requestedLine = z.strictObject({
  productId: namedId,
  quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000'),
});

/** How a payment was made, as the shop records it. */
export const PAYMENT_METHODS = ['card', 'bank-transfer', 'cash', 'other'] as const;
const paymentMethod = z.enum(PAYMENT_METHODS, { message: `must be one of ${PAYMENT_METHODS.join(', ')}` });

/**
 * The payment the shop recorded with the step to paid: what was paid (the order's total), how, and
 * the payment's own reference (a bank transfer's, a card terminal's receipt; never a card number).
 */
export const orderPayment = z.strictObject({ amount: money, method: paymentMethod, reference: z.string().nullable() });
export type OrderPayment = z.infer<typeof orderPayment>;
const acceptedPayment = z.strictObject({
  amount: money,
  method: paymentMethod,
  reference: text({ min: 1, max: 100 }).nullable().default(null),
});

export const ORDER = declareEntity('order', 'orderId', {
  userId: detail(entityId, namedId, { fixed: true }),
  lines: detail(z.array(orderLine), z.array(requestedLine).max(MAX_ORDER_LINES, `an order holds at most ${MAX_ORDER_LINES} lines`)),
  status: detail(orderStatus, orderStatus),
  /** Null until paid, and for orders paid before payments were recorded. */
  payment: optionalDetail(orderPayment.nullable(), acceptedPayment.nullable(), null),
});
