// User commands and the pure decisions on them.
import { refuse, requireLive } from '@eventide/kernel/models/refusal.ts';
import { userModel, type UserEvent, type UserState } from '@eventide/kernel/models/user/state.ts';
import type { Aggregate } from '../aggregate.ts';

export interface UserProfile {
  name: string;
  email: string;
}

export type UserCommand =
  | { type: 'CreateUser'; userId: string; profile: UserProfile }
  | { type: 'ChangeUser'; changes: Partial<UserProfile> }
  | { type: 'ReplaceUser'; profile: UserProfile }
  | { type: 'DeleteUser' };

type Existing = Extract<UserState, { status: 'active' }>;

const requireActive = (state: UserState): Existing => requireLive(state, 'this user');

/** Only the fields that really change; an empty result means nothing to record. */
function changedFields(current: Existing, wanted: Partial<UserProfile>): Partial<UserProfile> {
  const changes: Partial<UserProfile> = {};
  if (wanted.name !== undefined && wanted.name !== current.name) changes.name = wanted.name;
  if (wanted.email !== undefined && wanted.email !== current.email) changes.email = wanted.email;
  return changes;
}

function update(state: UserState, wanted: Partial<UserProfile>): UserEvent[] {
  const current = requireActive(state);
  const changes = changedFields(current, wanted);
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'user:updated', data: { userId: current.userId, changes } }];
}

export function decideCreate(command: Extract<UserCommand, { type: 'CreateUser' }>, state: UserState): UserEvent[] {
  if (state.status !== 'absent') throw refuse.conflict(`user ${command.userId} already exists`);
  return [{ type: 'user:created', data: { userId: command.userId, ...command.profile } }];
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'CreateUser':
      return decideCreate(command, state);
    case 'ChangeUser':
      return update(state, command.changes);
    case 'ReplaceUser':
      return update(state, command.profile);
    case 'DeleteUser':
      return [{ type: 'user:deleted', data: { userId: requireActive(state).userId } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const userAggregate: Aggregate<UserState, UserCommand, UserEvent> = { ...userModel, decide };
