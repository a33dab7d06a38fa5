// Webhooks (docs/webhooks.md): admins register endpoints for chosen public events, rotate their
// secrets, see their deliveries and redeliver one: this resource's part of the route table
// (operations.ts). Carries no schema code, so that a browser bundle (the typed client) can import
// it; the shapes are beside it (shapes.ts).
import type { Operation } from '../../operation.ts';

const webhook = { access: 'admin', tag: 'webhooks' } as const;

export const WEBHOOK_OPERATIONS = {
  listWebhooks: { ...webhook, service: 'query', method: 'get', path: '/admin/webhooks', summary: 'The registered webhook endpoints' },
  createWebhook: {
    ...webhook,
    service: 'command',
    method: 'post',
    path: '/admin/webhooks',
    summary: 'Register an endpoint for chosen events; the answer holds its signing secret, shown this once',
    refuses: ['conflict', 'unprocessable'],
  },
  getWebhook: {
    ...webhook,
    service: 'query',
    method: 'get',
    path: '/admin/webhooks/{id}',
    summary: 'One endpoint, with how many deliveries wait',
  },
  changeWebhook: {
    ...webhook,
    service: 'command',
    method: 'patch',
    path: '/admin/webhooks/{id}',
    summary: 'Change its URL, events or description, or enable it again (its waiting deliveries go on)',
    refuses: ['unprocessable'],
  },
  deleteWebhook: {
    ...webhook,
    service: 'command',
    method: 'delete',
    path: '/admin/webhooks/{id}',
    summary: 'Remove an endpoint and its deliveries',
  },
  rotateWebhookSecret: {
    ...webhook,
    service: 'command',
    method: 'post',
    path: '/admin/webhooks/{id}/secret',
    summary: 'A new signing secret; the old one still signs beside it for WEBHOOK_SECRET_OVERLAP_SECONDS',
  },
  listWebhookDeliveries: {
    ...webhook,
    service: 'query',
    method: 'get',
    path: '/admin/webhooks/{id}/deliveries',
    summary: 'Its deliveries, the newest first, with their outcome',
  },
  redeliverWebhook: {
    ...webhook,
    service: 'command',
    method: 'post',
    path: '/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    summary: 'Send a delivery again, now, with the same webhook-id',
  },
} as const satisfies Record<string, Operation>;
