// What every aggregate provides: state folded from its own stream and the decisions the write
// side takes on it. The public ones (user, order, product) take state and evolve from the shared
// entity model; the account is private to the write side and brings its own.
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import type { Recorded } from '@eventide/kernel/models/model.ts';

/** An event as a decider emits it: a public one from the catalogue or a private one. */
export type Decided = { type: string; data: JsonValue };

export interface Aggregate<State, Command, Event extends Decided> {
  /** The stream category: an instance's stream is `<model>-<entity id>` (streamIdOf). */
  model: string;
  initialState: State;
  evolve(state: State, event: Recorded<Event>): State;
  /** Pure: everything it needs (ids, prices, the time, who acts) is in the command. Throws a Refusal to refuse. */
  decide(command: Command, state: State): Event[];
}
