// What each of webhooks/operations.ts's operations takes and answers.
import { cursorPageOf } from '../../common.ts';
import type { Shape } from '../../shape.ts';
import { entityId } from '../../shape-parts.ts';
import type { WEBHOOK_OPERATIONS } from './operations.ts';
import {
  changeWebhookBody,
  createWebhookBody,
  deliveriesQuery,
  deliveryBody,
  deliveryId,
  webhookBody,
  webhooksBody,
  webhookWithSecretBody,
} from './schemas.ts';

const webhook = { id: entityId('webhook endpoint') };

export const WEBHOOK_SHAPES = {
  listWebhooks: { answers: { 200: { description: 'the endpoints, and how many may be registered', body: webhooksBody } } },
  createWebhook: {
    body: createWebhookBody,
    answers: { 201: { description: 'registered: it receives the events that happen from now on', body: webhookWithSecretBody } },
  },
  getWebhook: { params: webhook, answers: { 200: { description: 'the endpoint', body: webhookBody } } },
  changeWebhook: {
    params: webhook,
    body: changeWebhookBody,
    answers: { 200: { description: 'the endpoint as changed', body: webhookBody } },
  },
  deleteWebhook: { params: webhook, answers: { 204: { description: 'removed, with its deliveries' } } },
  rotateWebhookSecret: {
    params: webhook,
    answers: {
      200: { description: 'the new secret; the previous one signs beside it until previousSecretUntil', body: webhookWithSecretBody },
    },
  },
  listWebhookDeliveries: {
    params: webhook,
    query: deliveriesQuery,
    answers: { 200: { description: 'a page of deliveries, the newest first', body: cursorPageOf(deliveryBody) } },
  },
  redeliverWebhook: {
    params: { ...webhook, deliveryId: { schema: deliveryId, names: 'delivery' } },
    answers: { 202: { description: 'queued again, due now', body: deliveryBody } },
  },
} as const satisfies { [K in keyof typeof WEBHOOK_OPERATIONS]: Shape };
