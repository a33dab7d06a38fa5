// A user's sign-in methods and roles: the private stream `account-<userId>`. Its events hold
// the password hash, so they never leave the write side: the projector and the publisher only
// take the nine public events, and no read model is built from these. The decisions on it are
// in decide.ts.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Role } from '@eventide/kernel/models/principal.ts';
import { streamIdOf } from '@eventide/kernel/events/catalogue.ts';
import { loadState } from '@eventide/stores/event-store/load-state.ts';

export type Identity = {
  provider: string;
  subject: string;
};

export type AccountEvent =
  | { type: 'account:password-set'; data: { hash: string } }
  | { type: 'account:identity-linked'; data: Identity }
  | { type: 'account:identity-unlinked'; data: Identity }
  | { type: 'account:email-verified'; data: { email: string } }
  | { type: 'account:role-granted'; data: { role: Role } }
  | { type: 'account:role-revoked'; data: { role: Role } };

export interface Account {
  passwordHash: string | undefined;
  identities: Identity[];
  /** The address a provider proved this user owns (normalised), if any. */
  verifiedEmail: string | undefined;
  roles: Role[];
}

export const ACCOUNT = 'account';
export const accountStream = (userId: string) => streamIdOf(ACCOUNT, userId);

export const emptyAccount: Account = { passwordHash: undefined, identities: [], verifiedEmail: undefined, roles: [] };
const same = (a: Identity, b: Identity) => a.provider === b.provider && a.subject === b.subject;

export function evolveAccount(account: Account, event: { type: string; data: unknown }): Account {
  const e = event as AccountEvent;
  switch (e.type) {
    case 'account:password-set':
      return { ...account, passwordHash: e.data.hash };
    case 'account:identity-linked':
      return {
        ...account,
        identities: [...account.identities.filter((i) => !same(i, e.data)), { provider: e.data.provider, subject: e.data.subject }],
      };
    case 'account:identity-unlinked':
      return { ...account, identities: account.identities.filter((i) => !same(i, e.data)) };
    case 'account:email-verified':
      return { ...account, verifiedEmail: e.data.email };
    case 'account:role-granted':
      return account.roles.includes(e.data.role) ? account : { ...account, roles: [...account.roles, e.data.role] };
    case 'account:role-revoked':
      return { ...account, roles: account.roles.filter((r) => r !== e.data.role) };
    default:
      return account;
  }
}

/** How an account's state is folded from its stream (the decider adds its commands: decide.ts). */
export const accountModel = { model: ACCOUNT, initialState: emptyAccount, evolve: evolveAccount };

export const hasIdentity = (account: Account, identity: Identity) => account.identities.some((i) => same(i, identity));

export interface LoadedAccount {
  account: Account;
  revision: number;
}

export async function loadAccount(store: EventStore, userId: string): Promise<LoadedAccount> {
  const { state, revision } = await loadState(store, accountModel, accountStream(userId));
  return { account: state, revision };
}
