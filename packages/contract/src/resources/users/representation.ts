// How a user looks in responses, per API version (docs/api.md#versioning).
import type { UserV1, UserV2 } from './schemas.ts';
import type { UserState } from '@eventide/kernel/models/user/state.ts';
import { USER } from '@eventide/kernel/entities/user.ts';
import { representationOf } from '../../entities.ts';

type Known = Exclude<UserState, { status: 'absent' }>;

const represent = representationOf(USER);

export function userV2(state: Known): UserV2 {
  return represent(state);
}

export function userV1(state: Known): UserV1 {
  const { createdAt: _created, updatedAt: _updated, deletedAt: _deleted, version: _version, ...v1 } = represent(state);
  return v1;
}

export function known(state: UserState): Known {
  if (state.status === 'absent') throw new Error('a write left the user absent');
  return state;
}
