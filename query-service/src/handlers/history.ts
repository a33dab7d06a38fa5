// productHistory, orderHistory and userHistory: an entity's changes, newest first, read from its
// stream in the event store (from the newest snapshot before the page) and folded by the same
// evolve the read models use, so that each change is the fields it moved, before and after. Who made it comes from the event's metadata;
// a user deleted since is shown as erased (their key is gone, and so are their name and address
// in every event: a user's own history after erasure shows nulls). Who may read which history is
// the route table's rule, the same as for the entity itself.
import type { HistoryEntry, HistoryPage } from '@eventide/contract/history.ts';
import { DEFAULT_LIMIT } from '@eventide/contract/paging.ts';
import type { Actor, EventName, Model } from '@eventide/kernel/events/catalogue.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { fold } from '@eventide/kernel/models/model.ts';
import { ENTITY_MODELS } from '@eventide/kernel/models/registry.ts';
import { ORDER } from '@eventide/kernel/entities/order.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { USER } from '@eventide/kernel/entities/user.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { mayKnowPerson, type UserPrincipal } from '@eventide/kernel/models/principal.ts';
import { owned, type Handlers } from '@eventide/platform/http/mount.ts';
import type { QueryDeps } from './context.ts';
import { readOwnership } from '../ownership.ts';
import { loadEventsFrom, loadLastEvents } from '@eventide/stores/event-store/load-state.ts';

/** What a state holds about its own bookkeeping, not the entity (and the ids, which never change): never shown as a change. */
const BOOKKEEPING = new Set(['createdAt', 'updatedAt', 'deletedAt', 'version', ...[USER, PRODUCT, ORDER].map((entity) => entity.idKey)]);

/** A state's fields, read by name: none before the entity existed. */
const fieldsOf = (state: { status: string }): Readonly<Record<string, unknown>> =>
  state.status === 'absent' ? {} : (state as Readonly<Record<string, unknown>>);

/** The fields that differ between two states, before and after; null where a state has none. */
/**
 * Who made a change, as this reader may know them: a person's name for an admin, or for the person
 * themself; to anyone else, another person is only a user id (the pages say "the shop": on one's
 * own order or account, only the shop's people act besides oneself).
 */
function shownActor(by: Actor, people: Map<string, { name: string | null }>, reader: UserPrincipal): HistoryEntry['actor'] {
  if (by.type !== 'user') return by;
  const person = people.get(by.userId);
  const mayKnow = mayKnowPerson(reader, by.userId);
  return { type: 'user', userId: by.userId, erased: !person, ...(mayKnow && person?.name ? { name: person.name } : {}) };
}

function changesBetween(beforeState: { status: string }, afterState: { status: string }): HistoryEntry['changes'] {
  const [before, after] = [fieldsOf(beforeState), fieldsOf(afterState)];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((field) => !BOOKKEEPING.has(field));
  return fields
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

export function historyHandlers({
  eventStore,
  readStore,
  cursors,
}: QueryDeps): Pick<Handlers<'query'>, 'productHistory' | 'orderHistory' | 'userHistory'> {
  /** The page of `model` `id`'s changes that ends before the cursor's revision, newest first. */
  async function page<M extends Model>(
    model: M,
    id: string,
    query: { cursor?: string | undefined; limit?: number | undefined },
    reader: UserPrincipal,
  ): Promise<HistoryPage> {
    const entity = ENTITY_MODELS[model];
    const streamId = `${model}-${id}`;
    const list = `history:${streamId}`;
    const before = query.cursor === undefined ? undefined : cursors.decode(list, query.cursor, 'cursor');
    const limit = query.limit ?? DEFAULT_LIMIT;
    // A page's "before" states are folded from the newest snapshot before its oldest change, so
    // that a page costs about as much on a long stream as on a short one.
    const { before: start, events } =
      before === undefined
        ? await loadLastEvents(eventStore, entity, streamId, limit)
        : await loadEventsFrom(eventStore, entity, streamId, { from: Math.max(0, before - limit), to: before - 1 });
    if (events.length === 0 && before === undefined) throw refuse.notFound(`${model} ${id}`);
    const entries: Array<Omit<HistoryEntry, 'actor'> & { by: Actor }> = [];
    let state = start;
    for (const event of events) {
      const next = fold(entity, [event], state);
      entries.push(entryOf(event, state, next));
      state = next;
    }
    const people = await peopleAmong(entries.map((e) => e.by));
    const items = entries.reverse().map(({ by, ...entry }) => ({ ...entry, actor: shownActor(by, people, reader) }));
    const oldest = events[0];
    return { items, nextCursor: oldest && oldest.revision > 0 ? cursors.encode(list, oldest.revision) : null };
  }

  function entryOf(event: RecordedEvent, before: { status: string }, after: { status: string }) {
    return {
      revision: event.revision,
      time: event.time,
      event: event.type as EventName,
      by: event.metadata.actor,
      correlationId: event.metadata.correlationId,
      ...(event.metadata.reason ? { reason: event.metadata.reason } : {}),
      changes: changesBetween(before, after),
    };
  }

  /** These actors' users as they are now, by id: absent for one deleted since (and so erased). A read per person on the page. */
  async function peopleAmong(actors: Actor[]): Promise<Map<string, { name: string | null }>> {
    const ids = [...new Set(actors.flatMap((a) => (a.type === 'user' ? [a.userId] : [])))];
    const docs = await Promise.all(ids.map((id) => readStore.get('users', id)));
    return new Map(ids.flatMap((id, i) => (docs[i] && !docs[i].deleted ? [[id, { name: docs[i].fields.name ?? null }]] : [])));
  }

  return {
    async productHistory({ ctx, params, query, principal }) {
      ctx.body = await page('product', params.id, query, principal);
    },
    // An order's history is its customer's and the admins', as the order is.
    orderHistory: owned(readOwnership(readStore), async ({ ctx, params, query, principal }) => {
      ctx.body = await page('order', params.id, query, principal);
    }),
    async userHistory({ ctx, params, query, principal }) {
      ctx.body = await page('user', params.id, query, principal);
    },
  };
}
