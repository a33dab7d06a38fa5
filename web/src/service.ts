// The web app as a part of the process: GET / serves its page, and /app.js and /app.css its
// files, built from app/ when the service starts (esbuild; nothing comes from a CDN). The app
// routes in the URL's fragment (/#/products/…), so the server needs no route per page and the
// API's own paths stay JSON.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Service, ServiceFactory } from '@eventide/shared/service/compose.ts';
import { buildApp, type AppFiles } from './build.ts';

/** The page runs only its own script and talks only to its own origin. */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function webAppService(): ServiceFactory<Service> {
  return async ({ log }) => {
    // Built once at start: a broken build fails the start, not a visitor's first request.
    const files: AppFiles = await buildApp();
    log.info({ scriptBytes: files.script.length, styleBytes: files.style.length }, 'web app built');
    const router = new Router();
    router.get('/', (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', POLICY);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = files.page;
    });
    router.get('/app.js', (ctx) => serveFile(ctx, 'text/javascript; charset=utf-8', files.script, files.scriptTag));
    router.get('/app.css', (ctx) => serveFile(ctx, 'text/css; charset=utf-8', files.style, files.styleTag));
    return { routers: [router], health: () => ({ webApp: `${files.script.length} bytes of script` }), close: async () => {} };
  };
}

/** A built file, revalidated by its hash: a browser gets it again only when a build changed it. */
function serveFile(ctx: Context, type: string, body: string, etag: string): void {
  ctx.type = type;
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', etag);
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}
