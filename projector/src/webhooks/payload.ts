// What a webhook delivery carries: the public event as it travels on the bus, with its personal
// fields left out (null), as Standard Webhooks lays a payload out: { type, timestamp, data }.
// A receiver has no key to open a sealed field, and an erased person's fields are gone anyway:
// nothing personal leaves this way (docs/webhooks.md).
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';
import { withSealedAsNull } from '@eventide/kernel/events/personal-fields.ts';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';

export function webhookPayload(envelope: AnyEventEnvelope): string {
  const { traceparent: _trace, ...metadata } = envelope.metadata;
  return JSON.stringify({
    type: envelope.type,
    timestamp: envelope.time,
    data: { ...envelope, metadata, data: withSealedAsNull(envelope.type, envelope.data as JsonValue) },
  });
}
