// GET /users (offset pages), /users/{id}, and the versioned /v1 and /v2 forms.
import Router from '@koa/router';
import { z } from 'zod';
import { userV1, userV2 } from '@eventide/command-service/src/user/representation.ts';
import type { UserState } from '@eventide/command-service/src/user/user.ts';
import { deprecatedVersion } from '@eventide/command-service/src/http/versioning.ts';
import { limit, page, parseQuery } from '../params.ts';
import { byId, offsetPage, reader, type QueryDeps, type Render } from './context.ts';

const listQuery = z.strictObject({ page: page.optional(), limit: limit.optional() });
const v1: Render = (f) => userV1(f as unknown as Exclude<UserState, { status: 'absent' }>);
const v2: Render = (f) => userV2(f as unknown as Exclude<UserState, { status: 'absent' }>);

export function userReadRoutes({ readStore, progress }: QueryDeps): Router {
  const router = new Router();
  const get = reader(router, progress);
  router.use('/v1/users', deprecatedVersion('/v2'));

  for (const [prefix, render] of [['', v2], ['/v2', v2], ['/v1', v1]] as const) {
    get(`${prefix}/users`, async (ctx) => {
      ctx.body = await offsetPage(readStore, 'users', parseQuery(ctx, listQuery), render);
    });
    get(`${prefix}/users/:id`, byId(readStore, 'users', 'user', render));
  }
  return router;
}
