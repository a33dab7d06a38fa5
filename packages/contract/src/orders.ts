// The order endpoints' shapes (see users.ts for who uses them).
import { z } from 'zod';
import { money, orderStatus } from '@eventide/kernel/events/catalogue.ts';
import { timestamps } from './common.ts';
import { limit, page } from './paging.ts';

export const MAX_ORDER_LINES = 100;
const id = z.string().min(1, 'must not be empty').max(64).toLowerCase();
export const requestedLine = z.strictObject({
  productId: id,
  quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000'),
});
const lines = z.array(requestedLine).max(MAX_ORDER_LINES, `an order holds at most ${MAX_ORDER_LINES} lines`);
export const createOrderBody = z.strictObject({ userId: id, lines: lines.default([]) });
export const orderChanges = z
  .strictObject({ lines, status: orderStatus })
  .partial()
  .refine((c) => Object.keys(c).length > 0, 'send at least one of: lines, status');
export const replaceOrderBody = z.strictObject({ userId: id, lines, status: orderStatus });

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
