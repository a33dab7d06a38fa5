// The operator's console (admins only, docs/operations.md#the-console): where each follower of
// the log has got, the events they parked with why, retrying and skipping them, the largest
// streams, and one stream's events with what is personal in them masked.
import { z } from 'zod';
import { FOLLOWERS } from '@eventide/kernel/events/followers.ts';
import { limit } from '../../paging.ts';

export const followerName = z.enum(FOLLOWERS);

export const followerState = z.strictObject({
  name: followerName,
  /** The read models' generation the projector follows; absent for the others. */
  generation: z.number().int().optional(),
  /** The position of the last event it handled (or parked). */
  position: z.number().int().nonnegative(),
  /** Events in the log after it. */
  behind: z.number().int().nonnegative(),
  /** Events it could not handle, the first of their streams. */
  parked: z.number().int().nonnegative(),
  /** Events held behind those, to keep each entity's order. */
  held: z.number().int().nonnegative(),
});

export const followersBody = z.strictObject({
  /** The position of the last event in the log. */
  head: z.number().int().nonnegative(),
  followers: z.array(followerState),
  /** A rebuild of the read models under way (npm run rebuild): how far its new generation has got. */
  rebuild: z.strictObject({ generation: z.number().int(), position: z.number().int().nonnegative() }).nullable(),
});
export type FollowersBody = z.infer<typeof followersBody>;

export const parkedRequest = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('retry'), by: z.string(), at: z.string() }),
  z.strictObject({ action: z.literal('skip'), by: z.string(), at: z.string(), reason: z.string() }),
]);

export const parkedEventBody = z.strictObject({
  follower: followerName,
  generation: z.number().int().optional(),
  position: z.number().int().nonnegative(),
  eventId: z.string(),
  streamId: z.string(),
  revision: z.number().int().nonnegative(),
  type: z.string(),
  /** When it was recorded in the log. */
  time: z.string(),
  reason: z.string(),
  /** The position of the parked event of its stream it waits behind; absent for the first. */
  behind: z.number().int().optional(),
  attempts: z.number().int().nonnegative(),
  parkedAt: z.string(),
  lastAttemptAt: z.string(),
  /** What an operator asked of it, until its follower has done it. */
  request: parkedRequest.optional(),
});
export type ParkedEventBody = z.infer<typeof parkedEventBody>;

export const parkedQuery = z.strictObject({
  follower: followerName.optional(),
  /** Where the page before ended (its nextCursor). */
  cursor: z.string().optional(),
  limit: limit.optional(),
});

const position = z.number().int().positive();

export const retryParkedBody = z
  .strictObject({
    /** Whose parked events; all followers' when absent. */
    follower: followerName.optional(),
    /** One parked event (with its follower); every one of the follower's when absent. */
    position: position.optional(),
  })
  .refine((body) => body.position === undefined || body.follower !== undefined, {
    path: ['follower'],
    error: 'is needed with position: each follower parks an event on its own',
  });

export const skipParkedBody = z.strictObject({
  follower: followerName,
  position,
  /** Why, for the record: the skip is an audited operator's action in the log. */
  reason: z.string().trim().min(3, 'must say why, in 3 characters or more').max(500, 'must be at most 500 characters'),
});

export const requestedBody = z.strictObject({
  /** How many parked events the request was noted on: their followers act on it within a second or two. */
  requested: z.number().int().nonnegative(),
});

export const deadlinesQuery = z.strictObject({ limit: limit.optional() });

export const deadlineBody = z.strictObject({
  /** Which process (`payment-deadline`): its decisions are in the stream `<process>-<subject>` (GET /admin/streams/{streamId}/events). */
  process: z.string(),
  /** What it is about: the order's id. */
  subject: z.string(),
  /** What it does next: `remind`, `expire` (cancel the order), or `cancel` (asked again: the order is not yet seen cancelled). */
  next: z.string(),
  /** When that is due (ISO 8601). */
  nextAt: z.string(),
  /** When the deadline passes (ISO 8601). */
  deadline: z.string(),
});

export const deadlinesBody = z.strictObject({
  /** The earliest due first, up to the limit. */
  items: z.array(deadlineBody),
  /** How many deadlines are pending in all. */
  total: z.number().int().nonnegative(),
});
export type DeadlinesBody = z.infer<typeof deadlinesBody>;

export const streamsQuery = z.strictObject({ limit: limit.optional() });

export const streamsBody = z.strictObject({
  /** The longest streams, longest first: those of 32 events or more, which the write side keeps snapshots of. */
  items: z.array(z.strictObject({ streamId: z.string(), events: z.number().int().positive() })),
  /** False where the event store cannot tell (EventStoreDB): then items is empty. */
  available: z.boolean(),
});

export const streamId = z.string().regex(/^[a-z][a-z0-9]*-\S{1,200}$/, 'must be a stream id: <category>-<id>, as the log names it');

export const streamEventsQuery = z.strictObject({
  /** Where the page before ended (its nextCursor); from the first event when absent. */
  cursor: z.string().optional(),
  limit: limit.optional(),
});

export const streamEventBody = z.strictObject({
  position: z.number().int().nonnegative(),
  revision: z.number().int().nonnegative(),
  eventId: z.string(),
  type: z.string(),
  time: z.string(),
  schemaVersion: z.number().int().positive(),
  /** Why this release cannot read it, when it cannot. */
  unreadable: z.string().optional(),
  /** The payload, its personal fields masked (null), and null where the person was forgotten. */
  data: z.unknown(),
  /** The personal fields masked in `data`. */
  masked: z.array(z.string()),
  forgotten: z.boolean(),
  metadata: z.strictObject({ correlationId: z.string(), causationId: z.string(), actor: z.unknown() }),
});

export const streamEventsBody = z.strictObject({
  items: z.array(streamEventBody),
  /** Give it as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
