// Account commands and the pure decisions on them; they run through handle() like every other
// aggregate's, so a concurrent change to the same account is refused there, once.
import type { Role } from '@eventide/kernel/models/principal.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { Aggregate } from '../aggregate.ts';
import { handle, type CommandOptions } from '../handle.ts';
import { accountModel, hasIdentity, type Account, type AccountEvent, type Identity } from './account.ts';

export type AccountCommand =
  /** `replacing` is the hash the caller checked (or undefined for a first password): a change made since is refused. */
  | { type: 'SetPassword'; hash: string; replacing: string | undefined }
  /** `verifiedEmail`: the normalised address the provider proved this user owns, if it did. */
  | { type: 'LinkIdentity'; identity: Identity; verifiedEmail: string | undefined }
  | { type: 'UnlinkProvider'; provider: string }
  | { type: 'SetRole'; role: Role; granted: boolean };

function setPassword(command: Extract<AccountCommand, { type: 'SetPassword' }>, account: Account): AccountEvent[] {
  if (account.passwordHash !== command.replacing) {
    throw refuse.conflict('the password was changed by another request at the same time; try again');
  }
  return [{ type: 'account:password-set', data: { hash: command.hash } }];
}

function link(command: Extract<AccountCommand, { type: 'LinkIdentity' }>, account: Account): AccountEvent[] {
  const events: AccountEvent[] = [];
  if (!hasIdentity(account, command.identity)) events.push({ type: 'account:identity-linked', data: command.identity });
  if (command.verifiedEmail !== undefined && account.verifiedEmail !== command.verifiedEmail) {
    events.push({ type: 'account:email-verified', data: { email: command.verifiedEmail } });
  }
  return events;
}

/** Every link to the provider goes, unless it is the last way to sign in. */
function unlink(provider: string, account: Account): AccountEvent[] {
  const linked = account.identities.filter((i) => i.provider === provider);
  if (linked.length === 0) throw refuse.notFound(`a link to ${JSON.stringify(provider.slice(0, 64))}`);
  if (!account.passwordHash && account.identities.length === linked.length) {
    throw refuse.conflict('this is your only way to sign in: set a password or link another provider first');
  }
  return linked.map((i) => ({ type: 'account:identity-unlinked', data: { provider: i.provider, subject: i.subject } }));
}

export function decide(command: AccountCommand, account: Account): AccountEvent[] {
  switch (command.type) {
    case 'SetPassword':
      return setPassword(command, account);
    case 'LinkIdentity':
      return link(command, account);
    case 'UnlinkProvider':
      return unlink(command.provider, account);
    case 'SetRole':
      if (account.roles.includes(command.role) === command.granted) return [];
      return [{ type: command.granted ? 'account:role-granted' : 'account:role-revoked', data: { role: command.role } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const accountAggregate: Aggregate<Account, AccountCommand, AccountEvent> = { ...accountModel, decide };

/** Runs an account command for the user whose account it is. */
export function accountCommands(store: EventStore) {
  return (userId: string, command: AccountCommand, options: CommandOptions) => handle(store, accountAggregate, userId, command, options);
}
