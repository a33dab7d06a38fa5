// The query side's part of a person's export (docs/privacy.md#export): their profile as the read
// models hold it, the events of their own stream as they read now, and every order of theirs.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { orderV2 } from '@eventide/contract/resources/orders/representation.ts';
import { userV2 } from '@eventide/contract/resources/users/representation.ts';
import type { PersonalDataSections } from '@eventide/runtime/export-sections.ts';
import type { ReadDocument, ReadStore } from '@eventide/stores/read-store/port.ts';

/** Orders are read in keyset pages of this many, so a long history costs pages, never a count. */
const ORDER_PAGE = 200;
/** The user's stream is read in pages of this many events, so a long history is never held whole. */
const HISTORY_PAGE = 500;

export function addQuerySections(sections: PersonalDataSections, readStore: ReadStore, eventStore: EventStore): void {
  sections.add('profile', async (userId) => {
    const found = await readStore.get('users', userId);
    return found && !found.deleted ? userV2(found.fields) : null;
  });

  sections.add('profileHistory', async function* (userId) {
    for (let fromRevision = 0; ; fromRevision += HISTORY_PAGE) {
      const events = await eventStore.readStream(`user-${userId}`, { fromRevision, toRevision: fromRevision + HISTORY_PAGE - 1 });
      for (const { type, revision, time, data } of events) yield { type, revision, time, data: data as Record<string, unknown> };
      if (events.length < HISTORY_PAGE) return;
    }
  });

  sections.add('orders', async function* (userId) {
    for (let beforeSeq: number | null = null; ; ) {
      const { items }: { items: ReadDocument<'orders'>[] } = await readStore.list('orders', {
        filter: { userId },
        limit: ORDER_PAGE,
        beforeSeq,
      });
      for (const item of items) yield orderV2(item.fields);
      if (items.length < ORDER_PAGE) return;
      beforeSeq = items[items.length - 1]!.seq;
    }
  });
}
