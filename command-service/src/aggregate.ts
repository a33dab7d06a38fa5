// What every aggregate folder provides, and how its state is rebuilt from its stream.
import type { EventName, Model, PayloadOf } from '@eventide/shared/events/catalogue.ts';
import type { RecordedEvent } from '@eventide/shared/event-store/port.ts';
import { problems } from '@eventide/shared/http/problem.ts';

/** A decided public event, before the store gives it an id, a revision and a position. */
export type DomainEvent<N extends EventName = EventName> = { [K in N]: { type: K; data: PayloadOf<K> } }[N];

/** An event as evolve sees it: the decided event plus when the store recorded it and where. */
export type Recorded<E> = E & { time: string; revision: number };

export interface Aggregate<State, Command, Event extends DomainEvent> {
  model: Model;
  initialState: State;
  evolve(state: State, event: Recorded<Event>): State;
  /** Pure: everything it needs (ids, prices, the time) is in the command. Throws AppError to refuse. */
  decide(command: Command, state: State): Event[];
}

export function fold<State, Event extends DomainEvent>(
  aggregate: Pick<Aggregate<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: readonly RecordedEvent[],
): State {
  return events.reduce(
    (state, e) => {
      const recorded = { type: e.type, data: e.data, time: e.time, revision: e.revision } as unknown as Recorded<Event>;
      return aggregate.evolve(state, recorded);
    },
    aggregate.initialState,
  );
}

/** The state of an entity that exists and is not deleted; 404 or 410 otherwise. */
export function requireLive<State extends { status: string }>(state: State, what: string): Exclude<State, { status: 'absent' | 'deleted' }> {
  if (state.status === 'absent') throw problems.notFound(what);
  if (state.status === 'deleted') throw problems.gone(what);
  return state as Exclude<State, { status: 'absent' | 'deleted' }>;
}
