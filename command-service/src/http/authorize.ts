// Who may write what. Writes need a session; users change their own profile and orders, admins
// anything; admins alone manage products. Someone else's resource answers exactly as a missing
// one would, so ids cannot be probed.
import type { Context } from 'koa';
import { isAdmin, requireUser, type SessionUser } from '@eventide/shared/auth/session.ts';
import { problems } from '@eventide/shared/http/problem.ts';

export function requireAdmin(ctx: Context): SessionUser {
  const user = requireUser(ctx);
  if (!isAdmin(user)) throw problems.forbidden('only admins may do this');
  return user;
}

/** Whether the signed-in user may act on what `ownerId` owns. */
export const mayActFor = (user: SessionUser, ownerId: string | undefined) => isAdmin(user) || user.id === ownerId;
