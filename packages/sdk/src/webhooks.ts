// Receiving the webhooks an Eventide deployment sends (docs/webhooks.md#receiving): the signature
// and the timestamp window checked by the standardwebhooks library (the scheme's own), each
// webhook-id handled once, and the event typed as the catalogue says. The receiver hands it the
// raw body, exactly as it came: a body parsed and written again no longer matches its signature.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';

/** What a delivery's body holds: the public event, its personal fields left out (null). */
export interface WebhookDelivery {
  type: AnyEventEnvelope['type'];
  timestamp: string;
  data: AnyEventEnvelope;
}

/** The webhook-ids already handled; an in-memory one forgets at a restart, so keep them where the handler's effects are. */
export interface SeenIds {
  /** Marks the id seen; false when it was already (a retry or a redelivery of a delivery handled before). */
  firstTime(id: string): boolean | Promise<boolean>;
}

/** Remembers the last `size` ids in memory: enough for one process whose handler is idempotent anyway. */
export function recentIds(size = 10_000): SeenIds {
  const seen = new Set<string>();
  return {
    firstTime(id) {
      if (seen.has(id)) return false;
      seen.add(id);
      if (seen.size > size) seen.delete(seen.values().next().value!);
      return true;
    },
  };
}

export type WebhookVerdict =
  | { outcome: 'handle'; id: string; delivery: WebhookDelivery }
  /** Seen before: answer 2xx again, do nothing. */
  | { outcome: 'duplicate'; id: string }
  /** Not ours, tampered with, or outside the timestamp window (5 minutes): answer 400 or 401. */
  | { outcome: 'refused'; why: string };

/**
 * Checks a delivery with every secret given (during a rotation, the new one and the old), and
 * tells whether to handle it. `headers` are the request's, names in lower case (Node's are).
 */
export function webhookReceiver(options: { secrets: readonly string[]; seen?: SeenIds }) {
  const verifiers = options.secrets.map((secret) => new Webhook(secret));
  const seen = options.seen ?? recentIds();
  return {
    async receive(rawBody: string | Buffer, headers: Record<string, string | string[] | undefined>): Promise<WebhookVerdict> {
      const flat = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
      );
      let delivery: WebhookDelivery | undefined;
      let why = 'no secret given';
      for (const verifier of verifiers) {
        try {
          delivery = verifier.verify(rawBody, flat) as WebhookDelivery;
          break;
        } catch (error) {
          why = error instanceof WebhookVerificationError ? error.message : String(error);
        }
      }
      if (!delivery) return { outcome: 'refused', why };
      const id = flat['webhook-id']!;
      return (await seen.firstTime(id)) ? { outcome: 'handle', id, delivery } : { outcome: 'duplicate', id };
    },
  };
}
