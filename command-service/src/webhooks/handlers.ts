// The admin's writes on webhooks (docs/webhooks.md): register an endpoint, change, pause, enable
// or remove it, rotate its secret, and redeliver a delivery. Each is recorded in the log as the
// admin's action (a private event of their operator stream), without the secret.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Clock } from '@eventide/kernel/clock.ts';
import type { Config } from '@eventide/kernel/config.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { checkDestination, DestinationRefused } from '@eventide/platform/outbound/destinations.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { WebhookEndpoint, WebhookStore } from '@eventide/stores/webhooks/port.ts';
import { currentSecret, deliveryOf, webhookOf } from '@eventide/contract/resources/webhooks/representation.ts';
import { metadataOf } from '../http/actor.ts';
import { operatorStream } from '../operator/handlers.ts';

export interface WebhookDeps {
  store: EventStore;
  webhooks: WebhookStore;
  clock: Clock;
  config: Pick<Config, 'WEBHOOK_MAX_ENDPOINTS' | 'WEBHOOK_SECRET_OVERLAP_SECONDS' | 'WEBHOOK_ALLOWED_RANGES'>;
}

/** A signing secret as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function webhookHandlers(
  deps: WebhookDeps,
): Pick<Handlers<'command'>, 'createWebhook' | 'changeWebhook' | 'deleteWebhook' | 'rotateWebhookSecret' | 'redeliverWebhook'> {
  const { webhooks, clock, config } = deps;
  const policy = { allowed: config.WEBHOOK_ALLOWED_RANGES };

  /** Refuses a URL a delivery could not reach, naming the field, with why. */
  async function checkedUrl(url: string): Promise<string> {
    try {
      return (await checkDestination(url, policy)).toString();
    } catch (error) {
      if (error instanceof DestinationRefused) throw refuse.unprocessable('url', error.message);
      throw error;
    }
  }

  async function existing(id: string): Promise<WebhookEndpoint> {
    const endpoint = await webhooks.endpoint(id);
    if (!endpoint) throw refuse.notFound(`webhook endpoint ${id}`);
    return endpoint;
  }

  async function record(ctx: Context, userId: string, type: string, data: Record<string, unknown>): Promise<void> {
    const metadata = { ...metadataOf(ctx), causationId: newId() };
    await deps.store.append(operatorStream(userId), [{ id: newId(), type, data: data as never, metadata }], { expectedRevision: 'any' });
  }

  const represent = async (endpoint: WebhookEndpoint) => webhookOf(endpoint, await webhooks.pending(endpoint.id), clock.now());

  return {
    async createWebhook({ ctx, body, principal }) {
      const url = await checkedUrl(body.url);
      const now = new Date(clock.now()).toISOString();
      const endpoint: WebhookEndpoint = {
        id: newId(),
        url,
        events: body.events,
        description: body.description,
        secrets: [{ secret: newSecret() }],
        // From now on: an endpoint is not sent the whole history.
        fromPosition: await deps.store.head(),
        enabled: true,
        dropped: 0,
        createdAt: now,
        updatedAt: now,
      };
      if ((await webhooks.addEndpoint(endpoint, config.WEBHOOK_MAX_ENDPOINTS)) === 'full') {
        throw refuse.conflict(
          `${config.WEBHOOK_MAX_ENDPOINTS} webhook endpoints are registered, the most this deployment allows (WEBHOOK_MAX_ENDPOINTS): remove one first`,
          { fields: [{ field: 'url', message: 'no room for another endpoint' }] },
        );
      }
      await record(ctx, principal.userId, 'operator:webhook-registered', { webhookId: endpoint.id, url, events: body.events });
      ctx.status = 201;
      ctx.set('Location', `/admin/webhooks/${endpoint.id}`);
      ctx.body = { ...(await represent(endpoint)), secret: currentSecret(endpoint) };
    },

    async changeWebhook({ ctx, params, body, principal }) {
      const endpoint = await existing(params.id);
      const url = body.url === undefined ? endpoint.url : await checkedUrl(body.url);
      const enabling = body.enabled === true && !endpoint.enabled;
      const changed: WebhookEndpoint = {
        ...endpoint,
        url,
        events: body.events ?? endpoint.events,
        description: body.description ?? endpoint.description,
        enabled: body.enabled ?? endpoint.enabled,
        updatedAt: new Date(clock.now()).toISOString(),
      };
      if (changed.enabled) {
        delete changed.disabledReason;
        delete changed.disabledAt;
      } else if (body.enabled === false && endpoint.enabled) {
        changed.disabledReason = 'paused by an admin';
        changed.disabledAt = changed.updatedAt;
      }
      if (!(await webhooks.saveEndpoint(changed))) throw refuse.notFound(`webhook endpoint ${params.id}`);
      await record(ctx, principal.userId, 'operator:webhook-changed', {
        webhookId: endpoint.id,
        ...body,
        ...(enabling ? { enabled: true } : {}),
      });
      ctx.body = await represent(changed);
    },

    async deleteWebhook({ ctx, params, principal }) {
      if (!(await webhooks.removeEndpoint(params.id))) throw refuse.notFound(`webhook endpoint ${params.id}`);
      await record(ctx, principal.userId, 'operator:webhook-removed', { webhookId: params.id });
      ctx.status = 204;
    },

    async rotateWebhookSecret({ ctx, params, principal }) {
      const endpoint = await existing(params.id);
      const now = clock.now();
      const until = now + config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000;
      // The current one signs beside the new one until the overlap ends; older ones are let go.
      const previous = endpoint.secrets.filter((s) => s.until === undefined).map((s) => ({ ...s, until }));
      const rotated: WebhookEndpoint = {
        ...endpoint,
        secrets: [...previous, { secret: newSecret() }],
        updatedAt: new Date(now).toISOString(),
      };
      if (!(await webhooks.saveEndpoint(rotated))) throw refuse.notFound(`webhook endpoint ${params.id}`);
      await record(ctx, principal.userId, 'operator:webhook-secret-rotated', {
        webhookId: endpoint.id,
        previousUntil: new Date(until).toISOString(),
      });
      ctx.body = { ...(await represent(rotated)), secret: currentSecret(rotated) };
    },

    async redeliverWebhook({ ctx, params, principal }) {
      const delivery = await webhooks.delivery(params.deliveryId);
      if (!delivery || delivery.endpointId !== params.id)
        throw refuse.notFound(`delivery ${params.deliveryId} of webhook endpoint ${params.id}`);
      const again = (await webhooks.redeliver(delivery.id, clock.now()))!;
      await record(ctx, principal.userId, 'operator:webhook-redelivered', {
        webhookId: params.id,
        deliveryId: delivery.id,
        eventId: delivery.eventId,
      });
      ctx.status = 202;
      ctx.body = deliveryOf(again);
    },
  };
}
