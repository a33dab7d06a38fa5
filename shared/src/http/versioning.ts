// API versions: v2 is current (and what the unversioned paths serve); v1 is deprecated.
// docs/api.md#versioning says what differs; the route table (api/operations.ts) says which
// operations each version serves, and the mount announces the deprecation on each v1 answer.
import type { Context } from 'koa';

export type ApiVersion = 'v1' | 'v2';

/** The version the unversioned paths serve, and the ones that are deprecated. */
export const CURRENT_VERSION: ApiVersion = 'v2';
export const DEPRECATED_VERSIONS: readonly ApiVersion[] = ['v1'];

/** When v1 was deprecated and when it will stop answering. */
export const V1_DEPRECATED_AT = new Date('2026-11-20T00:00:00Z');
export const V1_SUNSET_AT = new Date('2027-06-30T00:00:00Z');

const DEPRECATION = `@${Math.floor(V1_DEPRECATED_AT.getTime() / 1000)}`;
const SUNSET = V1_SUNSET_AT.toUTCString();

/** RFC 9745 Deprecation, RFC 8594 Sunset, and links to the successor and the notice. */
export function announceDeprecation(ctx: Context): void {
  const successor = ctx.path.replace(/^\/v1\//, `/${CURRENT_VERSION}/`);
  ctx.set('Deprecation', DEPRECATION);
  ctx.set('Sunset', SUNSET);
  ctx.set('Link', `<${successor}>; rel="successor-version", </docs/versioning>; rel="deprecation"; type="text/html"`);
}
