// How a user looks in responses, per API version (docs/api.md#versioning).
import type { UserV1, UserV2 } from '../users.ts';
import type { UserState } from '@eventide/kernel/models/user/state.ts';

type Known = Exclude<UserState, { status: 'absent' }>;

export function userV2(state: Known): UserV2 {
  return {
    userId: state.userId,
    name: state.name,
    email: state.email,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    ...(state.status === 'deleted' ? { deletedAt: state.deletedAt } : {}),
    version: state.version,
  };
}

export function userV1(state: Known): UserV1 {
  return { userId: state.userId, name: state.name, email: state.email };
}

export function known(state: UserState): Known {
  if (state.status === 'absent') throw new Error('a write left the user absent');
  return state;
}
