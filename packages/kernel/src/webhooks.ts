// A webhook endpoint and a delivery to it, as the stores keep them and the API shows them
// (stores/webhooks, contract/resources/webhooks): declared once, below both (docs/webhooks.md).

export interface WebhookSecret {
  /** `whsec_` and the key in base64, as Standard Webhooks writes it. */
  secret: string;
  /** Until when it still signs (ms since the epoch), once a newer one replaced it; absent for the current one. */
  until?: number;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The public event names it receives. */
  events: string[];
  description: string;
  /** The newest last; older ones sign beside it until their `until`. */
  secrets: WebhookSecret[];
  /** Only events after this position of the log are delivered: the head when it was registered. */
  fromPosition: number;
  enabled: boolean;
  /** Why it was disabled, and when: a delivery that kept failing, or its queue full. */
  disabledReason?: string;
  disabledAt?: string;
  /** Events not queued for it because its queue was full. */
  dropped: number;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** Derived from the endpoint and the event: queuing it twice queues it once. */
  id: string;
  endpointId: string;
  /** The event's id: the webhook-id receivers deduplicate by. */
  eventId: string;
  eventType: string;
  /** The event's stream: deliveries of one entity to one endpoint go one at a time, in log order. */
  entity: string;
  position: number;
  /** The body sent, exactly. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** When it is next tried (ms since the epoch), while pending. */
  nextAttemptAt: number;
  /** When it was first tried (ms): its retries end WEBHOOK_RETRY_HOURS after. */
  firstAttemptAt?: number;
  lastAttemptAt?: string;
  /** The receiver's HTTP status, when it answered. */
  lastStatus?: number;
  /** Why the last attempt failed, in words. */
  lastError?: string;
  deliveredAt?: string;
  createdAt: string;
}
