// How an endpoint and a delivery look in responses: never a secret but where the route says so
// (created, rotated), never the payload (the event, which the admin can read in the log).
import type { Delivery, WebhookEndpoint } from '@eventide/kernel/webhooks.ts';
import type { DeliveryBody, WebhookBody } from './schemas.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function webhookOf(endpoint: WebhookEndpoint, pending: number, now: number): WebhookBody {
  const previous = endpoint.secrets.filter((s) => s.until !== undefined && s.until > now).map((s) => s.until!);
  return {
    webhookId: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    ...(endpoint.enabled || endpoint.disabledReason === undefined ? {} : { disabledReason: endpoint.disabledReason }),
    ...(endpoint.enabled || endpoint.disabledAt === undefined ? {} : { disabledAt: endpoint.disabledAt }),
    dropped: endpoint.dropped,
    pending,
    previousSecretUntil: previous.length > 0 ? iso(Math.max(...previous)) : null,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

/** The secret that signs now: the newest. */
export const currentSecret = (endpoint: WebhookEndpoint): string => endpoint.secrets[endpoint.secrets.length - 1]!.secret;

export function deliveryOf(delivery: Delivery): DeliveryBody {
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    entity: delivery.entity,
    position: delivery.position,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    lastAttemptAt: delivery.lastAttemptAt ?? null,
    lastStatus: delivery.lastStatus ?? null,
    lastError: delivery.lastError ?? null,
    deliveredAt: delivery.deliveredAt ?? null,
    createdAt: delivery.createdAt,
  };
}
