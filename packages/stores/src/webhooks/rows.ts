// The deliveries' columns, as both SQL adapters keep them, and the way back to a Delivery.
import type { Delivery, DeliveryOutcome, WebhookEndpoint } from './port.ts';

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  entity: string;
  position: number | string;
  payload: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: number | string;
  first_attempt_at: number | string | null;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** The columns a delivery is written with, in this order. */
export const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'entity',
  'position',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
] as const;

export const deliveryValues = (d: Delivery): Array<string | number> => [
  d.id,
  d.endpointId,
  d.eventId,
  d.eventType,
  d.entity,
  d.position,
  d.payload,
  d.status,
  d.attempts,
  d.nextAttemptAt,
  d.createdAt,
];

/** An attempt's outcome as both adapters' UPDATE takes it, in this order, then the delivery's id. */
export const outcomeValues = (o: DeliveryOutcome): Array<string | number | null> => [
  o.status,
  o.attempts,
  o.nextAttemptAt,
  o.firstAttemptAt ?? null,
  o.lastAttemptAt ?? null,
  o.lastStatus ?? null,
  o.lastError ?? null,
  o.deliveredAt ?? null,
];

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    entity: row.entity,
    position: Number(row.position),
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: Number(row.next_attempt_at),
    ...(row.first_attempt_at === null ? {} : { firstAttemptAt: Number(row.first_attempt_at) }),
    ...(row.last_attempt_at === null ? {} : { lastAttemptAt: row.last_attempt_at }),
    ...(row.last_status === null ? {} : { lastStatus: row.last_status }),
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.delivered_at === null ? {} : { deliveredAt: row.delivered_at }),
    createdAt: row.created_at,
  };
}

export const toEndpoint = (row: { body: string }): WebhookEndpoint => JSON.parse(row.body) as WebhookEndpoint;

/** The first pending delivery of each entity for each endpoint: no earlier one of its entity waits. */
export const FIRST_OF_ITS_ENTITY = `NOT EXISTS (
  SELECT 1 FROM webhook_deliveries e
  WHERE e.endpoint_id = d.endpoint_id AND e.entity = d.entity AND e.status = 'pending' AND e.position < d.position)`;
