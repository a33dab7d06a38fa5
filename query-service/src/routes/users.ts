// GET /users (offset pages), /users/{id}, and the versioned /v1 and /v2 forms.
import Router from '@koa/router';
import { userV1, userV2 } from '@eventide/shared/models/user/representation.ts';
import type { UserState } from '@eventide/shared/models/user/state.ts';
import { deprecatedVersion } from '@eventide/shared/http/versioning.ts';
import type { Middleware } from 'koa';
import { rateLimit } from '@eventide/shared/auth/rate-limit.ts';
import { isAdmin, requireUser } from '@eventide/shared/auth/session.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { parseQuery } from '@eventide/shared/http/query.ts';
import { userListQuery as listQuery } from '@eventide/shared/api/users.ts';
import { byId, offsetPage, reader, type QueryDeps, type Render } from './context.ts';

const v1: Render = (f) => userV1(f as unknown as Exclude<UserState, { status: 'absent' }>);
const v2: Render = (f) => userV2(f as unknown as Exclude<UserState, { status: 'absent' }>);

/** A signed-in user reads their own profile; admins read and list everyone's. */
const ownProfile: Middleware = async (ctx, next) => {
  const user = requireUser(ctx);
  const id = String((ctx.params as Record<string, string>).id ?? '').toLowerCase();
  if (!isAdmin(user) && id !== user.id) throw problems.notFound(`user ${JSON.stringify(id.slice(0, 64))}`);
  await next();
};

export function userReadRoutes({ readStore, progress, limiters, limits }: QueryDeps): Router {
  const router = new Router();
  const list = reader(router, progress);
  const profile = reader(
    router,
    progress,
    rateLimit(limiters, { name: 'user-profile', points: limits.profilePerSecond, duration: 1 }),
    ownProfile,
  );
  router.use('/v1/users', deprecatedVersion('/v2'));

  for (const [prefix, render] of [
    ['', v2],
    ['/v2', v2],
    ['/v1', v1],
  ] as const) {
    list(`${prefix}/users`, async (ctx) => {
      if (!isAdmin(requireUser(ctx))) throw problems.forbidden('only admins list users; read your own profile at /users/{id}');
      ctx.body = await offsetPage(readStore, 'users', parseQuery(ctx, listQuery), render);
    });
    profile(`${prefix}/users/:id`, byId(readStore, 'users', 'user', render));
  }
  return router;
}
