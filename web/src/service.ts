// The web app as a part of the process: GET / serves its page, and /app.js and /app.css its
// files, built from app/ when the service starts (esbuild; nothing comes from a CDN). The app
// routes in the URL's fragment (/#/products/…), so the server needs no route per page and the
// API's own paths stay JSON.
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { serveStatic } from '@eventide/platform/http/static-file.ts';
import { buildApp, type AppFiles } from './build.ts';

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
          appScript: ({ ctx }) => serveStatic(ctx, files.script),
          appStyle: ({ ctx }) => serveStatic(ctx, files.style),
        },
      },
      health: () => ({ webApp: `${files.script.gzip.length} bytes of compressed script` }),
      close: async () => {},
    };
  };
}
