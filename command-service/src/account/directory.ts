// Finding a user's account by what they sign in with, strongly consistent: from the write side's
// own claim streams, never from a read model that may lag.
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { emailClaims } from '../user/email-claim.ts';
import { load } from '../handle.ts';
import type { UserState } from '@eventide/shared/models/user/state.ts';
import { userAggregate } from '../user/decide.ts';

export type ActiveUser = Extract<UserState, { status: 'active' }>;

export async function userByEmail(store: EventStore, email: string): Promise<ActiveUser | undefined> {
  const userId = await emailClaims(store).holderOf(email);
  if (!userId) return undefined;
  return activeUser(store, userId);
}

export async function activeUser(store: EventStore, userId: string): Promise<ActiveUser | undefined> {
  const { state } = await load(store, userAggregate, userId);
  return state.status === 'active' ? state : undefined;
}
