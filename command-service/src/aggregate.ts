// What every aggregate folder provides: the shared entity model (state and evolve) and the
// decisions the write side takes on it.
import type { DomainEvent, EntityModel } from '@eventide/shared/models/model.ts';
import { problems } from '@eventide/shared/http/problem.ts';

export interface Aggregate<State, Command, Event extends DomainEvent> extends EntityModel<State, Event> {
  /** Pure: everything it needs (ids, prices, the time) is in the command. Throws AppError to refuse. */
  decide(command: Command, state: State): Event[];
}

/** The state of an entity that exists and is not deleted; 404 or 410 otherwise. */
export function requireLive<State extends { status: string }>(state: State, what: string): Exclude<State, { status: 'absent' | 'deleted' }> {
  if (state.status === 'absent') throw problems.notFound(what);
  if (state.status === 'deleted') throw problems.gone(what);
  return state as Exclude<State, { status: 'absent' | 'deleted' }>;
}
