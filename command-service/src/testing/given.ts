// given(events).when(command).then(events) for deciders: the spec style of every aggregate test.
import { expect } from 'vitest';
import { Refusal, type RefusalKind } from '@eventide/kernel/models/refusal.ts';
import type { Recorded } from '@eventide/kernel/models/model.ts';
import type { Aggregate, Decided } from '../aggregate.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

export function deciderSpec<State, Command, Event extends Decided>(aggregate: Aggregate<State, Command, Event>) {
  return (...history: Event[]) => {
    const state = history.reduce(
      (s, e, i) => aggregate.evolve(s, { ...e, time: new Date(T0 + i * 1000).toISOString(), revision: i } as Recorded<Event>),
      aggregate.initialState,
    );
    return {
      state,
      when: (command: Command) => {
        const run = () => aggregate.decide(command, state);
        return {
          // biome-ignore lint/suspicious/noThenProperty: given/when/then is the spec style; nothing awaits it
          then: (expected: Event[]) => expect(run()).toEqual(expected),
          thenNothing: () => expect(run()).toEqual([]),
          /** The decider refuses with this kind of refusal and a message matching `detail`. */
          thenRefuses: (kind: RefusalKind, detail: RegExp, field?: string) => {
            let error: unknown;
            try {
              run();
            } catch (caught) {
              error = caught;
            }
            expect(error, 'the decider should refuse').toBeInstanceOf(Refusal);
            const refusal = error as Refusal;
            expect(refusal.kind).toBe(kind);
            expect(refusal.message).toMatch(detail);
            if (field) expect(refusal.fields.map((e) => e.field)).toContain(field);
          },
        };
      },
    };
  };
}
