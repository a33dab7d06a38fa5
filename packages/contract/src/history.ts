// An entity's history (GET /products/{id}/history, /orders/{id}/history, /users/{id}/history):
// each change its events made, newest first, with when, who and which request, and each field
// it changed, before and after. Read from the event store, so it holds everything ever done.
import { z } from 'zod';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { limit } from './paging.ts';

export const historyQuery = z.strictObject({
  /** Where the page before ended (its nextCursor); the newest changes when absent. */
  cursor: z.string().optional(),
  limit: limit.optional(),
});

/** Who made a change, as the event's metadata names them; a user since erased is shown as erased, and nothing more of them. */
export const historyActor = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('anonymous') }),
  z.strictObject({
    type: z.literal('user'),
    userId: z.string(),
    erased: z.boolean().meta({ description: 'the user was deleted since: their data is gone' }),
    /** Their name now, for a reader who may know it: an admin, or the person themself. Anyone else sees a change by another as the shop's. */
    name: z.string().optional().meta({ description: 'their name now; only for an admin reading, or for the person themself' }),
  }),
  z.strictObject({ type: z.literal('system'), name: z.string() }),
]);

/** One field a change set: null before it existed, and after it is gone. */
export const fieldChange = z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() });

export const historyEntry = z.strictObject({
  /** The event's revision in the entity's stream: the entity's version after it. */
  revision: z.number().int().nonnegative(),
  time: z.string(),
  event: z.enum(EVENT_NAMES as [string, ...string[]]),
  actor: historyActor,
  correlationId: z.string(),
  /** Why the system made the change by itself (an order not paid in time): absent for a person's change. */
  reason: z.string().optional(),
  changes: z.array(fieldChange),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const historyPage = z.strictObject({
  items: z.array(historyEntry),
  /** Give it as `cursor` for the older changes; null on the page that holds the first. */
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPage>;

/**
 * `?at=` on a read of one entity: the entity as it was then, folded from its events up to that
 * point. A position (Event-Position, Read-Position) or a time (ISO 8601 with its offset).
 */
export const asOf = z.union(
  [
    z
      .string()
      .regex(/^[1-9][0-9]{0,14}$/)
      .transform(Number),
    z.iso.datetime({ offset: true }).transform((time) => new Date(time)),
  ],
  { error: 'must be a position (a whole number, as Event-Position gives) or a time (ISO 8601, such as 2026-11-27T12:00:00Z)' },
);
export const asOfQuery = z.strictObject({ at: asOf.optional() });
