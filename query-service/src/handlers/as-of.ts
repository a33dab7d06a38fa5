// Reads of one entity as it was (`?at=` on GET /products/{id}, /orders/{id}, /users/{id}): its
// stream read from the event store and folded by the model's own evolve up to a position or a
// time, from the newest snapshot before it (the write side leaves them on long streams), so that
// the answer is what a read at that moment answered.
import type { Model } from '@eventide/kernel/events/catalogue.ts';
import { ENTITY_MODELS, type KnownStateOf } from '@eventide/kernel/models/registry.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { loadStateAsOf } from '@eventide/stores/event-store/load-state.ts';

/**
 * The entity's state after its last event at or before `at` (a position, or a time), with that
 * event's revision. Not found when it did not exist yet; gone when it was deleted by then; a 400
 * naming `at` for a moment the store has not reached (its answer could still change).
 */
export async function stateAt<M extends Model>(
  eventStore: EventStore,
  model: M,
  id: string,
  at: number | Date,
  /** Charges the client's read budget what the fold took (a long stream's as-of read is the dearest read there is). */
  chargeReads: (ms: number) => void,
): Promise<{ state: KnownStateOf<M>; revision: number }> {
  const reached = typeof at === 'number' ? at <= (await eventStore.head()) : at.getTime() <= Date.now();
  if (!reached) throw problems.invalidField('at', typeof at === 'number' ? 'is past the last event the store holds' : 'is in the future');
  const bound = typeof at === 'number' ? { position: at } : { time: at.toISOString() };
  const started = performance.now();
  const { state, revision } = await loadStateAsOf(eventStore, ENTITY_MODELS[model], `${model}-${id}`, bound).finally(() =>
    chargeReads(performance.now() - started),
  );
  const what = `${model} ${id} as of ${typeof at === 'number' ? `position ${at}` : at.toISOString()}`;
  if (revision < 0) throw refuse.notFound(what);
  if (state.status === 'deleted') throw refuse.gone(what);
  // A stream with an event is never absent: its first event creates the entity.
  return { state: state as KnownStateOf<M>, revision };
}
