// API versions: v2 is current (and what the unversioned paths serve); v1 is deprecated.
// docs/api.md#versioning says what differs. Both sides answer v1 with the same notice.
import type { Middleware } from 'koa';

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
    ctx.set('Link', `<${successor}>; rel="successor-version", </docs/versioning>; rel="deprecation"; type="text/html"`);
    await next();
  };
}
