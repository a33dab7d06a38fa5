// The user model, for both sides: its events, its state as a union on `status`, and how events
// evolve it.
import type { DetailsOf } from '../../entities/entity.ts';
import type { DomainEvent, EntityModel, Recorded } from '../model.ts';
import { USER } from '../../entities/user.ts';

export type UserEvent = DomainEvent<'user:created' | 'user:updated' | 'user:deleted'>;

interface UserFields {
  userId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * What a user says of themselves (entity.ts), all of it personal. Null in an active state only
 * while a forgotten user's events are replayed: their deletion follows, which removes it for good.
 */
type Personal = DetailsOf<typeof USER>;
type Forgotten = { [K in keyof Personal]: null };

export type UserState =
  | { status: 'absent' }
  | ({ status: 'active' } & UserFields & Personal)
  | ({ status: 'deleted'; deletedAt: string } & UserFields & Forgotten);

export const initialState: UserState = { status: 'absent' };

const FORGOTTEN = Object.fromEntries(USER.personal.map((name) => [name, null])) as Forgotten;

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
        ...FORGOTTEN,
        status: 'deleted',
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
