// The route table of a versioned resource on the write side (docs/api.md#versioning).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { deprecatedVersion, type ApiVersion } from '@eventide/shared/http/versioning.ts';

type Handler = (ctx: Context) => Promise<void>;

export interface VersionedHandlers<Represent> {
  create: (prefix: string, represent: Represent) => Handler;
  change: (represent: Represent) => Handler;
  replace: (represent: Represent) => Handler;
  remove: (represent: Represent) => Handler;
}

/**
 * The route table of a resource with versions: the unversioned paths serve v2 with POST, PATCH
 * and DELETE; /v1 (deprecated) and /v2 serve POST, PUT and DELETE.
 */
export function mountVersioned<Represent>(
  router: Router,
  resource: string,
  handlers: VersionedHandlers<Represent>,
  represent: Record<ApiVersion, Represent>,
): void {
  const one = `/${resource}/:id`;
  router.post(`/${resource}`, handlers.create('', represent.v2));
  router.patch(one, handlers.change(represent.v2));
  router.delete(one, handlers.remove(represent.v2));

  router.use(`/v1/${resource}`, deprecatedVersion('/v2'));
  for (const version of ['v1', 'v2'] as const) {
    router.post(`/${version}/${resource}`, handlers.create(`/${version}`, represent[version]));
    router.put(`/${version}${one}`, handlers.replace(represent[version]));
    router.delete(`/${version}${one}`, handlers.remove(represent[version]));
  }
}
