// The deprecation of v1 announced on each of its answers, as the versions (api/versions.ts) say.
import type { Context } from 'koa';
import { CURRENT_API_VERSION, V1_DEPRECATED_AT, V1_SUNSET_AT } from '@eventide/contract/versions.ts';

const DEPRECATION = `@${Math.floor(V1_DEPRECATED_AT.getTime() / 1000)}`;
const SUNSET = V1_SUNSET_AT.toUTCString();

/** RFC 9745 Deprecation, RFC 8594 Sunset, and links to the successor and the notice. */
export function announceDeprecation(ctx: Context): void {
  const successor = ctx.path.replace(/^\/v1\//, `/${CURRENT_API_VERSION}/`);
  ctx.set('Deprecation', DEPRECATION);
  ctx.set('Sunset', SUNSET);
  ctx.set('Link', `<${successor}>; rel="successor-version", </docs/versioning>; rel="deprecation"; type="text/html"`);
}
