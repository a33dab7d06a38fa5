// The identity operations of the command service (api/operations.ts): sign-up (createUser) and
// erasure (deleteUser), password sign-in and sign-out, the session, the password and unlinking a
// provider. Thin: each calls its use case (identity.ts) and turns the answer into the session
// cookie and the reply. docs/auth.md.
import type { Context } from 'koa';
import type { SessionBody } from '@eventide/contract/resources/auth/schemas.ts';
import { describeSession, sessionUser, signIn, signOut } from '@eventide/platform/auth/session.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import { userV2 } from '@eventide/contract/resources/users/representation.ts';
import { loadAccount } from '../account/account.ts';
import { callerOf } from '../http/request-caller.ts';
import { commandOptions } from '../http/command-options.ts';
import { respondWrite } from '../http/respond.ts';
import type { Identity } from './identity.ts';

type IdentityOperations = 'createUser' | 'deleteUser' | 'signIn' | 'signOut' | 'getSession' | 'setPassword' | 'unlinkProvider';

export function identityHandlers(store: EventStore, identity: Identity): Pick<Handlers<'command'>, IdentityOperations> {
  async function sessionBody(ctx: Context): Promise<SessionBody> {
    const session = describeSession(ctx)!;
    const user = await identity.activeUser(session.userId);
    const { account } = await loadAccount(store, session.userId);
    return {
      ...session,
      user: user ? userV2(user) : null,
      signInMethods: { password: account.passwordHash !== undefined, providers: account.identities.map((i) => i.provider) },
    };
  }

  return {
    // Sign-up. With a password, someone not signed in is signed in by the answer.
    async createUser(input) {
      const { ctx, body } = input;
      const { password, ...profile } = body;
      // A sign-up may answer that the address is taken: one of the address's answers of that kind.
      await input.spend('account-answer');
      // The fingerprint leaves the password out: event ids are public, and must not be a fast hash of it.
      const options = commandOptions(input, profile);
      const { result, signIn: newUser } = await identity.signUp({ profile, password, by: input.principal, caller: callerOf(ctx), options });
      if (newUser) await signIn(ctx, { id: newUser, roles: [] });
      const userId = (result.state as { userId: string }).userId;
      respondWrite(ctx, result, input.represent(result.state), { status: 201, location: `${input.prefix}/users/${userId}` });
    },

    // Deleting is erasing (identity/erase.ts); a deleted user is signed out everywhere, this request too.
    async deleteUser(input) {
      const { ctx, params } = input;
      const { result, gone } = await identity.erase(params.id, commandOptions(input, null));
      if (sessionUser(ctx)?.id === params.id) signOut(ctx);
      // Deleted before: 410, once what an interrupted erasure left undone is done.
      if (!result) throw gone!;
      respondWrite(ctx, result, input.represent(result.state));
    },

    async signIn({ ctx, body }) {
      const user = await identity.signIn(body.email, body.password, callerOf(ctx));
      await signIn(ctx, { id: user.userId, roles: user.roles });
      ctx.body = await sessionBody(ctx);
    },

    signOut({ ctx }) {
      signOut(ctx);
      ctx.status = 204;
    },

    async getSession({ ctx }) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await sessionBody(ctx);
    },

    // Every other session of the user ends; this one continues under a new id.
    async setPassword({ ctx, user, body }) {
      await identity.setPassword(user.id, body, callerOf(ctx));
      await signIn(ctx, user);
      ctx.status = 204;
    },

    async unlinkProvider({ ctx, user, params }) {
      await identity.unlinkProvider(user.id, params.provider, callerOf(ctx));
      ctx.status = 204;
    },
  };
}
