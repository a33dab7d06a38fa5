// Webhooks: the endpoints admins registered, and the deliveries of events to them, each with its
// outcome (docs/webhooks.md). The projector's process queues a delivery for each public event an
// endpoint asked for and sends them (projector/src/webhooks); the admin routes read and change
// them from any process.
import type { Delivery, WebhookEndpoint } from '@eventide/kernel/webhooks.ts';

export type { Delivery, DeliveryStatus, WebhookEndpoint, WebhookSecret } from '@eventide/kernel/webhooks.ts';

/** What an attempt changed: recorded, and the delivery let go for others to claim. */
export type DeliveryOutcome = Pick<Delivery, 'status' | 'attempts' | 'nextAttemptAt'> &
  Partial<Pick<Delivery, 'firstAttemptAt' | 'lastAttemptAt' | 'lastStatus' | 'lastError' | 'deliveredAt'>>;

export interface WebhookStore {
  /** Adds it unless `max` endpoints are registered already. */
  addEndpoint(endpoint: WebhookEndpoint, max: number): Promise<'added' | 'full'>;
  endpoint(id: string): Promise<WebhookEndpoint | undefined>;
  endpoints(): Promise<WebhookEndpoint[]>;
  /** Writes the endpoint as given (its url, events, secrets, enabled), if it still exists. */
  saveEndpoint(endpoint: WebhookEndpoint): Promise<boolean>;
  /** Disables it, saying why, unless it is disabled already; adds `dropped` events not queued. */
  disable(id: string, reason: string, at: string, dropped?: number): Promise<void>;
  /** Removes it and its deliveries. */
  removeEndpoint(id: string): Promise<boolean>;
  /**
   * Queues deliveries (one already there is left as it is). An endpoint with `maxQueued` pending
   * gets none of these more: its id is returned, with how many were not queued.
   */
  enqueue(deliveries: readonly Delivery[], maxQueued: number): Promise<Map<string, number>>;
  /**
   * Up to `limit` pending deliveries due at `now`, of enabled endpoints, each the first pending
   * one of its entity for its endpoint, and not claimed by another sender; claimed until `now + leaseMs`.
   * None of the endpoints in `skip` (those the sender has as many in flight for as it allows one).
   */
  claim(now: number, limit: number, leaseMs: number, skip?: readonly string[]): Promise<Delivery[]>;
  record(id: string, outcome: DeliveryOutcome): Promise<void>;
  delivery(id: string): Promise<Delivery | undefined>;
  /** An endpoint's deliveries, the newest first (by position), before the position given. */
  deliveries(endpointId: string, options: { before?: number | undefined; limit: number }): Promise<Delivery[]>;
  /** Makes a delivery pending again, due at `now`, with its retries counted afresh. */
  redeliver(id: string, now: number): Promise<Delivery | undefined>;
  /** When the earliest pending delivery of an enabled endpoint is due, of those first of their entity (the others wait for them). */
  nextDue(): Promise<number | undefined>;
  /** How many are pending for the endpoint. */
  pending(endpointId: string): Promise<number>;
  /** Keeps the newest `keep` delivered or failed deliveries of each endpoint, and removes the rest. */
  prune(keep: number): Promise<void>;
  close(): Promise<void>;
}
