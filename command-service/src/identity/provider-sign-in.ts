// Which user a provider sign-in reaches, and when it is safe to reach an existing one.
//
// 1. An identity already linked reaches its user.
// 2. A signed-in user linking a provider gets the identity added to their account.
// 3. Otherwise the provider's email decides, and only when the provider verified it:
//    - no user holds the address: a new user is made, its address verified by the provider;
//    - the holder's address was verified (by a provider, earlier): the identity is linked;
//    - the holder has no way to sign in at all (made by sign-up without a password): nobody
//      controls it, so the provider's verified owner takes it;
//    - otherwise the holder has a password on an address nobody verified. It may be an
//      attacker's account made in advance with the victim's address (pre-hijacking), so the
//      sign-in is refused: the owner of that account signs in with its password and links the
//      provider from there.
import type { Role } from '@eventide/kernel/models/principal.ts';
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { ClaimNames } from '../claims.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { loadAccount, type Identity } from '../account/account.ts';
import { accountCommands } from '../account/decide.ts';
import { identityClaims, identityKey } from '../account/identity-claim.ts';
import type { CommandOptions } from '../handle.ts';
import { userCommands } from '../user/commands.ts';
import { normalizeEmail } from '@eventide/kernel/models/user/state.ts';
import { activeUser, userByEmail, type ActiveUser } from './directory.ts';

/** What the provider says about who signed in. */
export interface ProviderProfile {
  subject: string;
  email?: string | undefined;
  emailVerified: boolean;
  name?: string | undefined;
}

export interface Resolution {
  userId: string;
  roles: Role[];
  created: boolean;
}

export function providerAccounts(store: EventStore, names: ClaimNames) {
  const claims = identityClaims(store, names);
  const runUser = userCommands(store, names);
  const runAccount = accountCommands(store);

  /** Claims the identity for the user, then records it (and a verified matching address) in the account. */
  async function link(user: ActiveUser, identity: Identity, profile: ProviderProfile, metadata: EventMetadata) {
    const { causationId, ...rest } = metadata;
    await claims.claim(identityKey(identity), user.userId, causationId, metadata);
    const proven = profile.emailVerified && profile.email !== undefined && normalizeEmail(profile.email) === normalizeEmail(user.email);
    const command = { type: 'LinkIdentity', identity, verifiedEmail: proven ? normalizeEmail(user.email) : undefined } as const;
    return (await runAccount(user.userId, command, { metadata: rest, partOf: causationId })).state;
  }

  async function resolve(
    identity: Identity,
    profile: ProviderProfile,
    linkUserId: string | undefined,
    metadata: Omit<EventMetadata, 'causationId'>,
  ): Promise<Resolution> {
    const causation = { ...metadata, causationId: newId() };
    const holderId = await claims.holderOf(identityKey(identity));
    if (holderId) {
      if (linkUserId && holderId !== linkUserId) throw refuse.conflict('this provider account is already linked to another user');
      const holder = await activeUser(store, holderId);
      if (!holder) throw refuse.forbidden('the account linked to this provider account has been deleted', { reason: 'account-deleted' });
      return { userId: holderId, roles: (await loadAccount(store, holderId)).account.roles, created: false };
    }

    if (linkUserId) {
      const me = await activeUser(store, linkUserId);
      if (!me) throw refuse.unauthenticated('sign in first: the account this link was started from no longer exists');
      const account = await link(me, identity, profile, { ...causation, actor: { type: 'user', userId: me.userId } });
      return { userId: me.userId, roles: account.roles, created: false };
    }

    if (!profile.email || !profile.emailVerified) {
      throw refuse.forbidden(
        `${identity.provider} did not confirm an email address for this account; sign in another way and link ${identity.provider} from your account`,
        { reason: 'email-not-verified' },
      );
    }
    const holder = await userByEmail(store, names, profile.email);
    if (holder) {
      const { account } = await loadAccount(store, holder.userId);
      const verified = account.verifiedEmail === normalizeEmail(holder.email);
      const unclaimable = !account.passwordHash && account.identities.length === 0;
      if (!verified && !unclaimable) {
        throw refuse.conflict(
          `an account with this email exists, and its address has not been verified; sign in to it with its password, then link ${identity.provider} from there`,
          { reason: 'account-exists' },
        );
      }
      const linked = await link(holder, identity, profile, { ...causation, actor: { type: 'user', userId: holder.userId } });
      return { userId: holder.userId, roles: linked.roles, created: false };
    }

    const userId = newId();
    const options: CommandOptions = { metadata: { ...metadata, actor: { type: 'user', userId } } };
    const name = (profile.name?.trim() || profile.email.split('@')[0] || 'user').slice(0, 200);
    const created = await runUser(userId, { type: 'CreateUser', userId, profile: { name, email: profile.email } }, options);
    const linked = await link(created.state as ActiveUser, identity, profile, { ...causation, actor: { type: 'user', userId } });
    return { userId, roles: linked.roles, created: true };
  }

  return { resolve };
}
