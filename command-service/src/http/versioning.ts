// API versions: v2 is current (and what the unversioned paths serve); v1 is deprecated.
// docs/api.md#versioning says what differs.
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';

/** When v1 was deprecated and when it will stop answering. */
export const V1_DEPRECATED_AT = new Date('2026-11-20T00:00:00Z');
export const V1_SUNSET_AT = new Date('2027-06-30T00:00:00Z');

export type ApiVersion = 'v1' | 'v2';

/** RFC 9745 Deprecation, RFC 8594 Sunset, and links to the successor and the notice. */
export function deprecatedVersion(successorPrefix: string): Middleware {
  const deprecation = `@${Math.floor(V1_DEPRECATED_AT.getTime() / 1000)}`;
  const sunset = V1_SUNSET_AT.toUTCString();
  return async (ctx, next) => {
    // Set before the handler runs, so error answers carry the notice too.
    const successor = ctx.path.replace(/^\/v1\//, `${successorPrefix}/`);
    ctx.set('Deprecation', deprecation);
    ctx.set('Sunset', sunset);
    ctx.set('Link', `<${successor}>; rel="successor-version", </docs/api.md#versioning>; rel="deprecation"; type="text/markdown"`);
    await next();
  };
}

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
