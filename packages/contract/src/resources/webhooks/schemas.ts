// Webhook endpoints and their deliveries, as the admin routes take and answer them (docs/webhooks.md).
import { z } from 'zod';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { limit } from '../../paging.ts';

const eventNames = z
  .array(z.enum(EVENT_NAMES as [string, ...string[]], { error: `must be event names: ${EVENT_NAMES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .refine((names) => new Set(names).size === names.length, 'must name each event once');

const url = z.string().trim().min(1, 'must be an https:// URL').max(2000, 'must be at most 2,000 characters');
const description = z.string().trim().max(200, 'must be at most 200 characters');

export const createWebhookBody = z.strictObject({ url, events: eventNames, description: description.default('') });

export const changeWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: eventNames.optional(),
    description: description.optional(),
    /** true: enable it again after it was disabled; false: pause it (its deliveries wait). */
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { error: 'must change something: url, events, description or enabled' });

export const webhookBody = z.strictObject({
  webhookId: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  /** Why it was disabled (a delivery that kept failing, its queue full), and when. */
  disabledReason: z.string().optional(),
  disabledAt: z.string().optional(),
  /** Events not queued for it because its queue was full. */
  dropped: z.number().int().nonnegative(),
  /** Deliveries waiting to be sent or retried. */
  pending: z.number().int().nonnegative(),
  /** Until when a previous secret still signs beside the current one, after a rotation. */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookBody = z.infer<typeof webhookBody>;

/** An endpoint as created or with its secret rotated: the secret is shown then only. */
export const webhookWithSecretBody = webhookBody.extend({
  /** `whsec_…`: what the receiver verifies signatures with (docs/webhooks.md#receiving). */
  secret: z.string(),
});

export const webhooksBody = z.strictObject({
  items: z.array(webhookBody),
  /** How many may be registered (WEBHOOK_MAX_ENDPOINTS). */
  max: z.number().int().positive(),
});

export const deliveryBody = z.strictObject({
  deliveryId: z.string(),
  /** The event's id: the webhook-id header, the same on every attempt and redelivery. */
  eventId: z.string(),
  eventType: z.string(),
  /** The event's stream: an entity's deliveries go one at a time, in order. */
  entity: z.string(),
  position: z.number().int(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().nonnegative(),
  /** While pending: when it is next tried. */
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status at the last attempt, if it answered. */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeliveryBody = z.infer<typeof deliveryBody>;

export const deliveriesQuery = z.strictObject({
  /** Where the page before ended (its nextCursor). */
  cursor: z.string().optional(),
  limit: limit.optional(),
});

export const deliveryId = z.string().regex(/^[0-9a-f-]{36}$/i, 'must be a delivery id');
