// The admin's reads of webhooks (docs/webhooks.md): the endpoints, one endpoint, and its
// deliveries, the newest first. Secrets are never answered here.
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import { deliveryOf, webhookOf } from '@eventide/contract/resources/webhooks/representation.ts';
import type { Clock } from '@eventide/kernel/clock.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import type { WebhookStore } from '@eventide/stores/webhooks/port.ts';
import type { Cursors } from '../cursor.ts';

export interface WebhookReadDeps {
  webhooks: WebhookStore;
  clock: Clock;
  maxEndpoints: number;
  cursors: Cursors;
}

export function webhookReadHandlers(
  deps: WebhookReadDeps,
): Pick<Handlers<'query'>, 'listWebhooks' | 'getWebhook' | 'listWebhookDeliveries'> {
  const { webhooks, clock, cursors } = deps;
  const existing = async (id: string) => {
    const endpoint = await webhooks.endpoint(id);
    if (!endpoint) throw refuse.notFound(`webhook endpoint ${id}`);
    return endpoint;
  };
  return {
    async listWebhooks({ ctx }) {
      const endpoints = await webhooks.endpoints();
      const now = clock.now();
      const items = await Promise.all(endpoints.map(async (e) => webhookOf(e, await webhooks.pending(e.id), now)));
      ctx.body = { items, max: deps.maxEndpoints };
    },

    async getWebhook({ ctx, params }) {
      const endpoint = await existing(params.id);
      ctx.body = webhookOf(endpoint, await webhooks.pending(endpoint.id), clock.now());
    },

    async listWebhookDeliveries({ ctx, params, query }) {
      await existing(params.id);
      const list = `webhook-deliveries:${params.id}`;
      const before = query.cursor === undefined ? undefined : cursors.decode(list, query.cursor, 'cursor');
      const limit = query.limit ?? DEFAULT_LIMIT;
      const page = await webhooks.deliveries(params.id, { before, limit: limit + 1 });
      const shown = page.slice(0, limit);
      ctx.body = {
        items: shown.map(deliveryOf),
        nextCursor: page.length > limit ? cursors.encode(list, shown[shown.length - 1]!.position) : null,
      };
    },
  };
}
