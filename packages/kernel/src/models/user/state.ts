// The user model, for both sides: its events, its state as a union on `status`, and how events
// evolve it.
import type { DomainEvent, EntityModel, Recorded } from '../model.ts';

export type UserEvent = DomainEvent<'user:created' | 'user:updated' | 'user:deleted'>;

interface UserFields {
  userId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * What is personal about a user. Null in an active state only while a forgotten user's events are
 * replayed: their deletion follows, which removes both for good.
 */
interface Personal {
  name: string | null;
  email: string | null;
}

export type UserState =
  | { status: 'absent' }
  | ({ status: 'active' } & UserFields & Personal)
  | ({ status: 'deleted'; deletedAt: string; name: null; email: null } & UserFields);

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
      // A deleted user keeps nothing personal, in the write side's state and in the read model alike.
      return {
        ...state,
        status: 'deleted',
        name: null,
        email: null,
        deletedAt: event.time,
        updatedAt: event.time,
        version: event.revision,
      };
  }
}

/** Emails are compared trimmed and case-folded; the address is stored as the user typed it. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const userModel: EntityModel<UserState, UserEvent> = { model: 'user', initialState, evolve };
