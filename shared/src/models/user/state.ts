// The user model, for both sides: its events, its state as a union on `status`, and how events
// evolve it.
import type { DomainEvent, EntityModel, Recorded } from '../model.ts';

export type UserEvent = DomainEvent<'user:created' | 'user:updated' | 'user:deleted'>;

interface UserFields {
  userId: string;
  name: string;
  email: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type UserState =
  | { status: 'absent' }
  | ({ status: 'active' } & UserFields)
  | ({ status: 'deleted'; deletedAt: string } & UserFields);

export const initialState: UserState = { status: 'absent' };

export function evolve(state: UserState, event: Recorded<UserEvent>): UserState {
  switch (event.type) {
    case 'user:created':
      return {
        status: 'active',
        ...event.data,
        createdAt: event.time,
        updatedAt: event.time,
        version: event.revision,
      };
    case 'user:updated':
      if (state.status !== 'active') return state;
      return { ...state, ...event.data.changes, updatedAt: event.time, version: event.revision };
    case 'user:deleted':
      if (state.status !== 'active') return state;
      return { ...state, status: 'deleted', deletedAt: event.time, updatedAt: event.time, version: event.revision };
  }
}

/** Emails are compared trimmed and case-folded; the address is stored as the user typed it. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const userModel: EntityModel<UserState, UserEvent> = { model: 'user', initialState, evolve };
