// Password sign-in and the signed-in user's own account: signIn, signOut, getSession,
// setPassword, unlinkProvider (api/operations.ts). docs/auth.md.
import type { Context } from 'koa';
import { abandonSignal } from '@eventide/shared/auth/hasher.ts';
import { hashPassword, verifyPassword } from '@eventide/shared/auth/password.ts';
import { clientKey } from '@eventide/shared/auth/rate-limit.ts';
import { describeSession, signIn, signOut } from '@eventide/shared/auth/session.ts';
import { signInGuard } from '@eventide/shared/auth/sign-in-guard.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { ClaimNames } from '../claims.ts';
import type { Handlers } from '@eventide/shared/http/mount.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { newId } from '@eventide/shared/ids.ts';
import { metadataOf } from '../http/actor.ts';
import { normalizeEmail } from '@eventide/shared/models/user/state.ts';
import { userV2 } from '@eventide/shared/models/user/representation.ts';
import { loadAccount } from './account.ts';
import { accountCommands } from './decide.ts';
import type { AuthDeps } from './deps.ts';
import type { SessionBody } from '@eventide/shared/api/auth.ts';
import { activeUser, userByEmail } from './directory.ts';

const wrongCredentials = () => problems.unauthenticated('the email or the password is wrong');

type AccountOperations = 'signIn' | 'signOut' | 'getSession' | 'setPassword' | 'unlinkProvider';

export function accountHandlers(store: EventStore, names: ClaimNames, auth: AuthDeps): Pick<Handlers<'command'>, AccountOperations> {
  const guard = signInGuard(auth.limiters, auth.signIn);
  const { hasher } = auth;
  const runAccount = accountCommands(store);
  // Unknown accounts cost the same hash as known ones, so timing does not tell which exist.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword(newId(), hasher.params));

  async function sessionBody(ctx: Context): Promise<SessionBody> {
    const session = describeSession(ctx)!;
    const user = await activeUser(store, session.userId);
    const { account } = await loadAccount(store, session.userId);
    return {
      ...session,
      user: user ? userV2(user) : null,
      signInMethods: { password: account.passwordHash !== undefined, providers: account.identities.map((i) => i.provider) },
    };
  }

  return {
    async signIn({ ctx, body }) {
      // Counted before the password is checked: see sign-in-guard.ts.
      const attempt = await guard.attempt(normalizeEmail(body.email), ctx.ip);
      const user = await userByEmail(store, names, body.email);
      const loaded = user ? await loadAccount(store, user.userId) : undefined;
      const encoded = loaded?.account.passwordHash ?? (await decoyHash());
      const verdict = await hasher.verify(clientKey(ctx), body.password, encoded, abandonSignal(ctx));
      if (!user || !loaded?.account.passwordHash || !verdict.ok) throw wrongCredentials();
      await attempt.succeeded();
      if (verdict.needsRehash) {
        // Best effort: a concurrent change to the account wins, and the next sign-in tries again.
        const hash = await hasher.hash(clientKey(ctx), body.password);
        const replacing = loaded.account.passwordHash;
        await runAccount(
          user.userId,
          { type: 'SetPassword', hash, replacing },
          { metadata: { ...metadataOf(ctx), actor: { type: 'user', userId: user.userId } } },
        ).catch(() => undefined);
      }
      await signIn(ctx, { id: user.userId, roles: loaded.account.roles });
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

    // Sets or changes the password. A change needs the current one, which is guessed no more
    // cheaply here than at sign-in: the same guard counts the attempt first. Every other session
    // of the user ends, and this one continues under a new id.
    async setPassword({ ctx, user: me, body }) {
      const { account } = await loadAccount(store, me.id);
      const current = account.passwordHash;
      if (current && body.currentPassword === undefined) throw problems.invalidField('currentPassword', 'is required to change a password');
      const email = current ? (await activeUser(store, me.id))?.email : undefined;
      const attempt = email ? await guard.attempt(normalizeEmail(email), ctx.ip) : undefined;
      const hash = await hasher.run(
        clientKey(ctx),
        async () => {
          if (current && !(await verifyPassword(body.currentPassword!, current, hasher.params)).ok) {
            throw problems.unprocessable('currentPassword', 'is not the current password');
          }
          return hashPassword(body.password, hasher.params);
        },
        abandonSignal(ctx),
      );
      await attempt?.succeeded();
      await runAccount(me.id, { type: 'SetPassword', hash, replacing: current }, { metadata: metadataOf(ctx) });
      await auth.sessions.destroyUser(me.id);
      await signIn(ctx, me);
      ctx.status = 204;
    },

    async unlinkProvider({ ctx, user: me, params }) {
      await runAccount(me.id, { type: 'UnlinkProvider', provider: params.provider }, { metadata: metadataOf(ctx) });
      ctx.status = 204;
    },
  };
}
