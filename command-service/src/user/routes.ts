// User writes: POST, PATCH and DELETE /users, and the versioned POST, PUT and DELETE
// /v1/users and /v2/users. Thin: parse, build the command, handle, answer.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import { known, userV1, userV2 } from '@eventide/shared/models/user/representation.ts';
import { readBody } from '@eventide/shared/http/body.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { clientKey, limiter, rateLimit } from '@eventide/shared/auth/rate-limit.ts';
import { isAdmin, requireUser, sessionUser, signOut } from '@eventide/shared/auth/session.ts';
import { signInGuard } from '@eventide/shared/auth/sign-in-guard.ts';
import type { AuthDeps } from '../account/deps.ts';
import { profile, signUpBody, userChanges as changes } from '@eventide/shared/api/users.ts';
import { mayActFor } from '../http/authorize.ts';
import { commandOptions } from '../http/command-options.ts';
import { entityId } from '../http/conditions.ts';
import { respondWrite } from '../http/respond.ts';
import { mountVersioned } from '../http/versioning.ts';
import { emailClaims } from './email-claim.ts';
import { signUps } from './sign-up.ts';
import { userCommands, type BeforeNewAddress } from './commands.ts';

export interface UserRoutesDeps {
  store: EventStore;
  keys: KeyStore;
  bodyLimit: number;
  now?: () => Date;
  auth: AuthDeps;
}

type Represent = (state: ReturnType<typeof known>) => unknown;

export function userRoutes({ store, keys, bodyLimit, now, auth }: UserRoutesDeps): Router {
  const router = new Router();
  const claims = emailClaims(store, keys, now);
  const run = userCommands(store, keys, now, claims);
  const signUp = signUps({ store, claims, run, hasher: auth.hasher, guard: signInGuard(auth.limiters, auth.signIn) });
  const limit = rateLimit(auth.limiters, { name: 'user-profile', points: auth.profilePerSecond, duration: 1 });
  // Each sign-up or change of address may answer that an address is taken (docs/auth.md,
  // "Who can learn that an address has an account"), so strangers get few of them; admins,
  // who can list every user, are not counted.
  const signUpLimit = limiter(auth.limiters, {
    name: 'sign-up',
    points: auth.signUpsPerHour,
    duration: 3600,
    what: 'sign-ups from this address',
  });
  const emailChangeLimit = limiter(auth.limiters, {
    name: 'email-change',
    points: auth.emailChangesPerHour,
    duration: 3600,
    what: 'changes of address',
  });
  const beforeNewAddress = (ctx: Context): BeforeNewAddress | undefined =>
    isAdmin(sessionUser(ctx)) ? undefined : () => emailChangeLimit(ctx, clientKey(ctx));

  /** The user id in the path, when the signed-in user may act on it; anyone else's is not found. */
  const ownUserId = (ctx: Context) => {
    const user = requireUser(ctx);
    const userId = entityId(ctx, 'id', 'user');
    if (!mayActFor(user, userId)) throw problems.notFound(`user ${userId}`);
    return userId;
  };

  // Sign-up: open to anyone not signed in, and to admins. With a password, the new user is
  // signed in by the answer (sign-up.ts).
  const create = (prefix: string, represent: Represent) => async (ctx: Context) => {
    const me = sessionUser(ctx);
    if (me && !isAdmin(me)) throw problems.forbidden('you are signed in; sign out to create another account');
    const { password: chosen, ...profile } = await readBody(ctx, signUpBody, bodyLimit);
    if (!me) await signUpLimit(ctx, clientKey(ctx));
    // The fingerprint leaves the password out: event ids are public, and must not be a fast
    // hash of it.
    const options = commandOptions(ctx, profile);
    const result = await signUp(ctx, { profile, password: chosen, by: me, options });
    const userId = (result.state as { userId: string }).userId;
    respondWrite(ctx, result, represent(known(result.state)), { status: 201, location: `${prefix}/users/${userId}` });
  };

  const change = (represent: Represent) => async (ctx: Context) => {
    const userId = ownUserId(ctx);
    const body = await readBody(ctx, changes, bodyLimit);
    const result = await run(userId, { type: 'ChangeUser', changes: body }, commandOptions(ctx, body), beforeNewAddress(ctx));
    respondWrite(ctx, result, represent(known(result.state)));
  };

  const replace = (represent: Represent) => async (ctx: Context) => {
    const userId = ownUserId(ctx);
    const body = await readBody(ctx, profile, bodyLimit);
    const result = await run(userId, { type: 'ReplaceUser', profile: body }, commandOptions(ctx, body), beforeNewAddress(ctx));
    respondWrite(ctx, result, represent(known(result.state)));
  };

  const remove = (represent: Represent) => async (ctx: Context) => {
    const userId = ownUserId(ctx);
    const result = await run(userId, { type: 'DeleteUser' }, commandOptions(ctx, null));
    // Deleting is forgetting: with the key gone, what the events said of them reads as null
    // everywhere (docs/privacy.md). Also on a repeat, so that a retry finishes what failed here.
    await keys.forget(userId);
    // A deleted user is signed out everywhere.
    await auth.sessions.destroyUser(userId);
    if (sessionUser(ctx)?.id === userId) signOut(ctx);
    respondWrite(ctx, result, represent(known(result.state)));
  };

  const limited =
    <A extends unknown[]>(handler: (...a: A) => (ctx: Context) => Promise<void>) =>
    (...a: A) => {
      const inner = handler(...a);
      return (ctx: Context) => limit(ctx, () => inner(ctx));
    };
  mountVersioned(
    router,
    'users',
    { create, change: limited(change), replace: limited(replace), remove: limited(remove) },
    { v1: userV1, v2: userV2 },
  );
  return router;
}
