// The identity module: the use cases that span the user, account and claim aggregates, each
// written once and called from every entry point (the HTTP handlers, the admin command line, the
// seed): sign-up, sign-in with a password or a provider, linking and unlinking a provider,
// setting a password, roles, and erasure. The aggregates below it do not import each other.
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { SignInGuard } from '@eventide/platform/auth/sign-in-guard.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { accountCommands } from '../account/decide.ts';
import { userCommands } from '../user/commands.ts';
import { emailClaims } from '../user/email-claim.ts';
import type { Caller } from '../caller.ts';
import { activeUser, userByEmail } from './directory.ts';
import { erasure } from './erase.ts';
import { passwords } from './passwords.ts';
import { providerAccounts } from './provider-sign-in.ts';
import { roles } from './roles.ts';
import { signUps } from './sign-up.ts';

export type { Caller } from '../caller.ts';

export interface IdentityDeps {
  store: EventStore;
  /** The key store: its keyed hash names claim streams, and erasing a user destroys their key. */
  keys: KeyStore;
  sessions: SessionStore;
  hasher: PasswordHasher;
  /** Counts failed sign-ins (and proofs of a repeated sign-up) per account and address. */
  guard: SignInGuard;
  now?: () => Date;
}

export function identity({ store, keys, sessions, hasher, guard, now }: IdentityDeps) {
  const claims = emailClaims(store, keys, now);
  const runUser = userCommands(store, keys, now, claims);
  const runAccount = accountCommands(store);
  const password = passwords({ store, names: keys, sessions, hasher, guard });
  return {
    /** Runs a user command with the email claim it needs (a change of address); for profile changes. */
    runUser,
    signUp: signUps({ store, claims, run: runUser, hasher, guard }),
    signIn: password.signIn,
    setPassword: password.setPassword,
    /** Sign-in (or linking) with a provider: which user it reaches, made or linked as it must be. */
    providerSignIn: providerAccounts(store, keys).resolve,
    unlinkProvider: (userId: string, provider: string, caller: Pick<Caller, 'metadata'>) =>
      runAccount(userId, { type: 'UnlinkProvider', provider }, { metadata: caller.metadata }),
    setRole: roles(store, sessions),
    erase: erasure({ keys, sessions, run: runUser }),
    userByEmail: (email: string) => userByEmail(store, keys, email),
    activeUser: (userId: string) => activeUser(store, userId),
  };
}

export type Identity = ReturnType<typeof identity>;
