// Cross-site request protection beside SameSite=Lax: a state-changing request that a browser
// sent from another origin is refused. Browsers send Origin with every POST, PUT, PATCH and
// DELETE; when it is missing, Sec-Fetch-Site still tells a cross-site request. A request with
// neither comes from a non-browser client, which holds its own cookies and cannot be forged.
import type { Context, Middleware } from 'koa';
import { problems } from '@eventide/contract/problems.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The origin the client asked for: its scheme (X-Forwarded-Proto behind a trusted proxy) and its
 * Host header. Never X-Forwarded-Host, which Koa would read behind a proxy: a client sends that
 * header as it likes, and a proxy that does not overwrite it passes it on, so a forged one would
 * make any Origin the request's own. The front door sends the browser's Host as it came.
 */
export function requestOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.get('Host')}`;
}

/** `allowed`: origins besides the request's own (PUBLIC_ORIGIN, ALLOWED_ORIGINS). */
export function originCheck(allowed: string[] = []): Middleware {
  const extra = new Set(allowed.map((o) => new URL(o).origin));
  return async (ctx, next) => {
    if (!SAFE.has(ctx.method)) {
      const origin = ctx.get('Origin');
      if (origin) {
        if (origin !== requestOrigin(ctx) && !extra.has(origin)) {
          throw problems.forbidden(`requests from ${origin === 'null' ? 'an opaque origin' : origin} may not change state here`);
        }
      } else if (ctx.get('Sec-Fetch-Site') === 'cross-site') {
        throw problems.forbidden('cross-site requests may not change state here');
      }
    }
    await next();
  };
}
