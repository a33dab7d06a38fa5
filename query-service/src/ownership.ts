// Who may read an order, as the read side loads it: the rule of every `owner` route of the query
// service (GET /orders/{id}, its history) and of the live streams (live/resources.ts).
import type { Ownership } from '@eventide/platform/http/mount.ts';
import { maySee } from '@eventide/kernel/models/order/life-cycle.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { ReadDocument, ReadStore } from '@eventide/stores/read-store/port.ts';

/** An order is its customer's and the admins': to anyone else it does not exist, deleted or not. */
export function readOwnership(readStore: ReadStore): Ownership<ReadDocument<'orders'> | undefined, ReadDocument<'orders'>> {
  return {
    load: ({ id }) => readStore.get('orders', id),
    check(who, doc, { id }): asserts doc is ReadDocument<'orders'> {
      if (!doc || !maySee(doc.fields.userId, who)) throw refuse.notFound(`order ${id}`);
    },
  };
}
