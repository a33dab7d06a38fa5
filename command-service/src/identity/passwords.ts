// Signing in with a password, and setting or changing it. Unknown accounts cost the same hash as
// known ones, so timing does not tell which exist; every attempt is counted by the sign-in guard
// before the password is checked (sign-in-guard.ts), and a change of password is guessed no more
// cheaply than a sign-in.
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import { hashPassword, verifyPassword } from '@eventide/platform/auth/password.ts';
import type { Role } from '@eventide/kernel/models/principal.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { SignInGuard } from '@eventide/platform/auth/sign-in-guard.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { normalizeEmail } from '@eventide/kernel/models/user/state.ts';
import { loadAccount } from '../account/account.ts';
import { accountCommands } from '../account/decide.ts';
import type { ClaimNames } from '../claims.ts';
import type { Caller } from '../caller.ts';
import { activeUser, userByEmail } from './directory.ts';

export interface PasswordDeps {
  store: EventStore;
  names: ClaimNames;
  sessions: SessionStore;
  hasher: PasswordHasher;
  guard: SignInGuard;
}

export interface SignedIn {
  userId: string;
  roles: Role[];
}

export function passwords({ store, names, sessions, hasher, guard }: PasswordDeps) {
  const runAccount = accountCommands(store);
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword(newId(), hasher.params));

  return {
    /** Who the email and password prove the caller is; the same refusal for an unknown email as for a wrong password. */
    async signIn(email: string, password: string, caller: Caller): Promise<SignedIn> {
      const attempt = await guard.attempt(normalizeEmail(email), caller.ip);
      const user = await userByEmail(store, names, email);
      const loaded = user ? await loadAccount(store, user.userId) : undefined;
      const encoded = loaded?.account.passwordHash ?? (await decoyHash());
      const verdict = await hasher.verify(caller.key, password, encoded, caller.signal);
      if (!user || !loaded?.account.passwordHash || !verdict.ok) throw refuse.unauthenticated('the email or the password is wrong');
      await attempt.succeeded();
      if (verdict.needsRehash) {
        // Best effort: a concurrent change to the account wins, and the next sign-in tries again.
        const hash = await hasher.hash(caller.key, password);
        await runAccount(
          user.userId,
          { type: 'SetPassword', hash, replacing: loaded.account.passwordHash },
          { metadata: { ...caller.metadata, actor: { type: 'user', userId: user.userId } } },
        ).catch(() => undefined);
      }
      return { userId: user.userId, roles: loaded.account.roles };
    },

    /** Sets a first password, or changes it given the current one; every session of the user ends (the caller signs in again). */
    async setPassword(userId: string, change: { currentPassword?: string | undefined; password: string }, caller: Caller): Promise<void> {
      const { account } = await loadAccount(store, userId);
      const current = account.passwordHash;
      if (current && change.currentPassword === undefined) throw refuse.invalid('currentPassword', 'is required to change a password');
      const email = current ? (await activeUser(store, userId))?.email : undefined;
      const attempt = email ? await guard.attempt(normalizeEmail(email), caller.ip) : undefined;
      const hash = await hasher.run(
        caller.key,
        async () => {
          if (current && !(await verifyPassword(change.currentPassword!, current, hasher.params)).ok) {
            throw refuse.unprocessable('currentPassword', 'is not the current password');
          }
          return hashPassword(change.password, hasher.params);
        },
        caller.signal,
      );
      await attempt?.succeeded();
      await runAccount(userId, { type: 'SetPassword', hash, replacing: current }, { metadata: caller.metadata });
      await sessions.destroyUser(userId);
    },
  };
}
