// Finding a user's account by what they sign in with, strongly consistent: from the write side's
// own claim streams, never from a read model that may lag.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { UserState } from '@eventide/kernel/models/user/state.ts';
import type { ClaimNames } from '../claims.ts';
import { load } from '../handle.ts';
import { userAggregate } from '../user/decide.ts';
import { emailClaims } from '../user/email-claim.ts';

/** A user who is active and readable: a forgotten one's fields are null until their deletion is folded in. */
export type ActiveUser = Extract<UserState, { status: 'active' }> & { name: string; email: string };

const isActive = (state: UserState): state is ActiveUser => state.status === 'active' && state.name !== null && state.email !== null;

export async function userByEmail(store: EventStore, names: ClaimNames, email: string): Promise<ActiveUser | undefined> {
  const userId = await emailClaims(store, names).holderOf(email);
  if (!userId) return undefined;
  return activeUser(store, userId);
}

export async function activeUser(store: EventStore, userId: string): Promise<ActiveUser | undefined> {
  const { state } = await load(store, userAggregate, userId);
  return isActive(state) ? state : undefined;
}
