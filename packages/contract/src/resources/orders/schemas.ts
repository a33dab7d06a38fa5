// The order endpoints' shapes (see users.ts for who uses them), from the order's declaration.
import { z } from 'zod';
import { money } from '@eventide/kernel/entities/values.ts';
import { ORDER, orderPayment, orderStatus } from '@eventide/kernel/entities/order.ts';
import { timestamps } from '../../common.ts';
import { limit, page } from '../../paging.ts';

const { userId, lines, status } = ORDER.details;
/** A create names its customer and, if it likes, its lines; it starts a draft (the life cycle's first status). */
export const createOrderBody = z.strictObject({ userId: userId.accepted, lines: lines.accepted.default([]) });
export const orderChanges = ORDER.changesInput;
/** v1's PUT: every detail. */
export const replaceOrderBody = z.strictObject({ userId: userId.accepted, lines: lines.accepted, status: status.accepted });

export const orderListQuery = z.strictObject({
  page: page.optional(),
  limit: limit.optional(),
  userId: z.uuid('userId must be a user id').toLowerCase().optional(),
  status: orderStatus.optional(),
});

/** What an order answers: a deleted order shows `deleted`. */
const shownStatus = z.union([orderStatus, z.literal('deleted')]);
const pricedLine = z.strictObject({ productId: z.string(), quantity: z.number().int(), unitPrice: money });
export const orderV2Body = z.strictObject({
  orderId: z.string(),
  userId: z.string(),
  status: shownStatus,
  lines: z.array(pricedLine.extend({ lineTotal: money })),
  total: money.nullable(),
  /** Recorded with the step to paid; null before, and for orders paid before payments were recorded. */
  payment: orderPayment.nullable(),
  ...timestamps,
});
/** Deprecated: decimal amounts in the order's currency. */
export const orderV1Body = z.strictObject({
  orderId: z.string(),
  userId: z.string(),
  status: shownStatus,
  lines: z.array(z.strictObject({ productId: z.string(), quantity: z.number().int(), unitPrice: z.number() })),
  total: z.number(),
  currency: z.string().nullable(),
});
export type OrderV2 = z.infer<typeof orderV2Body>;
export type OrderV1 = z.infer<typeof orderV1Body>;
