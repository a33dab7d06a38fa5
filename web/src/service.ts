// The web app as a part of the process: GET / serves its page, and /app.js and /app.css its
// files, built from app/ when the service starts (esbuild; nothing comes from a CDN). The app
// routes in the URL's fragment (/#/products/…), so the server needs no route per page and the
// API's own paths stay JSON.
import type { Context } from 'koa';
import type { Service, ServiceFactory } from '@eventide/shared/service/compose.ts';
import { buildApp, type AppFiles, type BuiltFile } from './build.ts';

/** The page runs only its own script and talks only to its own origin. */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function webAppService(): ServiceFactory<Service> {
  return async ({ log }) => {
    // Built once at start: a broken build fails the start, not a visitor's first request.
    const files: AppFiles = await buildApp();
    log.info({ scriptBytes: files.script.body.length, scriptGzipBytes: files.script.gzip.length }, 'web app built');
    return {
      api: {
        service: 'web' as const,
        handlers: {
          appPage({ ctx }) {
            ctx.type = 'text/html; charset=utf-8';
            ctx.set('Content-Security-Policy', POLICY);
            ctx.set('Cache-Control', 'no-cache');
            ctx.body = files.page;
          },
          appScript: ({ ctx }) => serveFile(ctx, files.script),
          appStyle: ({ ctx }) => serveFile(ctx, files.style),
        },
      },
      health: () => ({ webApp: `${files.script.gzip.length} bytes of compressed script` }),
      close: async () => {},
    };
  };
}

/** A built file, compressed as the browser accepts, revalidated by its hash. */
function serveFile(ctx: Context, file: BuiltFile): void {
  ctx.type = file.type;
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', file.etag);
  ctx.vary('Accept-Encoding');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br' || encoding === 'gzip') {
    ctx.set('Content-Encoding', encoding);
    ctx.body = encoding === 'br' ? file.brotli : file.gzip;
  } else {
    ctx.body = file.body;
  }
}
