// GET /users/{id}/export: a signed-in person downloads everything the system holds about them as
// one JSON document (docs/privacy.md#export); an admin may export anyone, for a request made by
// other means. The sections come from the services of this process (export.ts).
import Router from '@koa/router';
import { rateLimit } from '../auth/rate-limit.ts';
import { isAdmin, requireUser } from '../auth/session.ts';
import { problems } from '../http/problem.ts';
import { isUuid } from '../ids.ts';
import type { Service, ServiceFactory } from '../service/compose.ts';

/** An export reads every section: a few an hour are plenty for a person, and cheap for the service. */
export const EXPORTS_PER_HOUR = 10;

export function personalDataExportService(): ServiceFactory<Service> {
  return async ({ auth: openAuth, personalData }) => {
    const auth = await openAuth();
    const router = new Router();
    router.get(
      '/users/:id/export',
      async (ctx, next) => {
        const user = requireUser(ctx);
        const id = String(ctx.params.id).toLowerCase();
        // Another person's export is as absent as a stranger's profile; an id that is no user id
        // is no user's (and so never reaches the file name in the answer's header).
        if ((!isAdmin(user) && id !== user.id) || !isUuid(id)) throw problems.notFound(`user ${JSON.stringify(id.slice(0, 64))}`);
        await next();
      },
      rateLimit(
        auth.limiters,
        { name: 'personal-data-export', points: EXPORTS_PER_HOUR, duration: 3600, what: 'exports' },
        (ctx) => requireUser(ctx).id,
      ),
      async (ctx) => {
        const id = String(ctx.params.id).toLowerCase();
        ctx.body = await personalData.exportOf(id);
        ctx.set('Content-Disposition', `attachment; filename="personal-data-${id}.json"`);
        ctx.set('Cache-Control', 'no-store');
      },
    );
    return { routers: [router], health: () => ({}), close: async () => undefined };
  };
}
