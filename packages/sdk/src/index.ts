// What `import … from '@eventide/sdk'` gives a downstream service: a subscriber, a webhook receiver, and the event
// catalogue's names and types that its handlers are typed with. Metrics are a second entry
// (`@eventide/sdk/metrics`), so that a service without prom-client installs none.
export { createSubscriber } from './subscriber.ts';
export { deadLetters } from './dead-letters.ts';
export type { DeadLetterRecord, DeadLetterResolution, DeadLettersOptions, KafkaDeadLetters } from './dead-letters.ts';
export type { KafkaSubscriberOptions, KeyLookup, Subscriber, SubscriberOptions, SubscriberSettings } from './subscriber.ts';
export type { DeadLetter, Handler, Outcome, RetryPolicy } from './dispatch.ts';
export type { HttpTransportOptions } from './http-transport.ts';
export { recentIds, webhookReceiver } from './webhooks.ts';
export type { SeenIds, WebhookDelivery, WebhookVerdict } from './webhooks.ts';
export { EVENT_NAMES, isEventName } from '@eventide/kernel/events/catalogue.ts';
export { ORDER_STATUSES } from '@eventide/kernel/entities/order.ts';
export type { OrderLine, OrderStatus } from '@eventide/kernel/entities/order.ts';
export type { Money } from '@eventide/kernel/entities/values.ts';
export type {
  Action,
  Actor,
  AnyEventEnvelope,
  EventEnvelope,
  EventMetadata,
  EventName,
  Model,
  PayloadOf,
} from '@eventide/kernel/events/catalogue.ts';
