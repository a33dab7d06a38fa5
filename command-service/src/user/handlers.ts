// The user operations of the command service (createUser, which is sign-up, changeUser,
// replaceUser, deleteUser: api/operations.ts), in every version the table serves them. The mount
// has checked who may call (sign-up: not signed in, or an admin; the rest: the user or an admin)
// and spent the rate limit; these are thin: build the command, handle, answer.
import { sessionUser, signOut } from '@eventide/shared/auth/session.ts';
import { signInGuard } from '@eventide/shared/auth/sign-in-guard.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Handlers } from '@eventide/shared/http/mount.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import type { AuthDeps } from '../account/deps.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import { userCommands, type BeforeNewAddress } from './commands.ts';
import { emailClaims } from './email-claim.ts';
import { signUps } from './sign-up.ts';

export interface UserHandlersDeps {
  store: EventStore;
  keys: KeyStore;
  now?: () => Date;
  auth: AuthDeps;
}

export function userHandlers({
  store,
  keys,
  now,
  auth,
}: UserHandlersDeps): Pick<Handlers<'command'>, 'createUser' | 'changeUser' | 'replaceUser' | 'deleteUser'> {
  const claims = emailClaims(store, keys, now);
  const run = userCommands(store, keys, now, claims);
  const signUp = signUps({ store, claims, run, hasher: auth.hasher, guard: signInGuard(auth.limiters, auth.signIn) });
  // Each change of address may answer that an address is taken (docs/auth.md, "Who can learn
  // that an address has an account"): spent only when the address really changes (api/limits.ts).
  const beforeNewAddress =
    (input: { spend(limit: 'email-change'): Promise<void> }): BeforeNewAddress =>
    () =>
      input.spend('email-change');

  return {
    // Sign-up. With a password, the new user is signed in by the answer (sign-up.ts).
    async createUser(input) {
      const { password: chosen, ...profile } = input.body;
      // The fingerprint leaves the password out: event ids are public, and must not be a fast hash of it.
      const options = commandOptions(input, profile);
      const result = await signUp(input.ctx, { profile, password: chosen, by: input.user, options });
      const userId = (result.state as { userId: string }).userId;
      respondWrite(input.ctx, result, input.represent(result.state), { status: 201, location: `${input.prefix}/users/${userId}` });
    },

    async changeUser(input) {
      const { ctx, params, body } = input;
      const result = await run(params.id, { type: 'ChangeUser', changes: body }, commandOptions(input, body), beforeNewAddress(input));
      respondWrite(ctx, result, input.represent(result.state));
    },

    async replaceUser(input) {
      const { ctx, params, body } = input;
      const result = await run(params.id, { type: 'ReplaceUser', profile: body }, commandOptions(input, body), beforeNewAddress(input));
      respondWrite(ctx, result, input.represent(result.state));
    },

    async deleteUser(input) {
      const { ctx, params } = input;
      const userId = params.id;
      const result = await run(userId, { type: 'DeleteUser' }, commandOptions(input, null));
      // Deleting is forgetting: with the key gone, what the events said of them reads as null
      // everywhere (docs/privacy.md). Also on a repeat, so that a retry finishes what failed here.
      await keys.forget(userId);
      // A deleted user is signed out everywhere.
      await auth.sessions.destroyUser(userId);
      if (sessionUser(ctx)?.id === userId) signOut(ctx);
      respondWrite(ctx, result, input.represent(result.state));
    },
  };
}
