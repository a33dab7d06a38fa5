// What every entity model provides to both sides: its state folded from its own events. The
// write side adds decisions (command-service's Aggregate); the read side keeps the same state as
// its documents, so that a read answers exactly what the write answered.
import type { EventName, Model, PayloadOf } from '../events/catalogue.ts';
import type { RecordedEvent } from '../events/recorded.ts';

/**
 * The revisions a write accepts its entity at (If-Match): `*`, any, so long as it exists; or one
 * of these. A write to an entity at another revision is refused (412).
 */
export type ExpectedRevisions = '*' | number[];

/** A decided public event, before the store gives it an id, a revision and a position. */
export type DomainEvent<N extends EventName = EventName> = { [K in N]: { type: K; data: PayloadOf<K> } }[N];

/** An event as evolve sees it: the decided event plus when the store recorded it and where. */
export type Recorded<E> = E & { time: string; revision: number };

export interface EntityModel<State, Event extends DomainEvent> {
  model: Model;
  initialState: State;
  evolve(state: State, event: Recorded<Event>): State;
}

/** The state after `events`, from the initial state or from `from`; the write side's private streams fold with it too. */
export function fold<State, Event extends { type: string; data: unknown }>(
  model: { initialState: State; evolve(state: State, event: Recorded<Event>): State },
  events: readonly RecordedEvent[],
  from: State = model.initialState,
): State {
  return events.reduce((state, e) => {
    const recorded = { type: e.type, data: e.data, time: e.time, revision: e.revision } as unknown as Recorded<Event>;
    return model.evolve(state, recorded);
  }, from);
}
