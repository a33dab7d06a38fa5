// GET /users (offset pages), /users/{id}, and the versioned /v1 and /v2 forms.
import Router from '@koa/router';
import { z } from 'zod';
import { userV1, userV2 } from '@eventide/command-service/src/user/representation.ts';
import type { UserState } from '@eventide/command-service/src/user/user.ts';
import { deprecatedVersion } from '@eventide/command-service/src/http/versioning.ts';
import { DEFAULT_LIMIT, limit, page, parseQuery } from '../params.ts';
import { findOne, reader, type QueryDeps, type Render } from './context.ts';

const listQuery = z.strictObject({ page: page.optional(), limit: limit.optional() });
const v1: Render = (f) => userV1(f as unknown as Exclude<UserState, { status: 'absent' }>);
const v2: Render = (f) => userV2(f as unknown as Exclude<UserState, { status: 'absent' }>);

export function userReadRoutes({ readStore, progress }: QueryDeps): Router {
  const router = new Router();
  const get = reader(router, progress);
  router.use('/v1/users', deprecatedVersion('/v2'));

  for (const [prefix, render] of [['', v2], ['/v2', v2], ['/v1', v1]] as const) {
    get(`${prefix}/users`, async (ctx) => {
      const query = parseQuery(ctx, listQuery);
      const p = query.page ?? 1;
      const l = query.limit ?? DEFAULT_LIMIT;
      const result = await readStore.list('users', { limit: l, offset: (p - 1) * l });
      ctx.body = { items: result.items.map((d) => render(d.fields)), page: p, limit: l, total: result.total ?? 0 };
    });
    get(`${prefix}/users/:id`, async (ctx) => {
      const doc = await findOne(readStore, 'users', ctx, 'user');
      ctx.set('ETag', `"${doc.version}"`);
      ctx.body = render(doc.fields);
    });
  }
  return router;
}
