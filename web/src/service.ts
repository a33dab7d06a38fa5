// The web app as a part of the process: GET / serves its page, and /app.js, /app/{chunk}.js and
// /app.css its files, built from app/ when the service starts (esbuild; nothing comes from a CDN). The app
// routes in the URL's fragment (/#/products/…), so the server needs no route per page and the
// API's own paths stay JSON.
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { serveStatic } from '@eventide/platform/http/static-file.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { buildApp, type AppFiles } from './build.ts';

/** The page runs only its own script and talks only to its own origin. */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function webAppService(): ServiceFactory<Service> {
  return async ({ log }) => {
    // Built once, beside the rest of the start (an esbuild process of its own) rather than before
    // the process answers: the app's own requests wait for it. Begun once the process listens
    // (attach): starting esbuild took 50 ms of the start's own thread on two cores (2026-11-30).
    // A start whose app files are unchanged reads the last build instead (build.ts). A broken build
    // still ends the process, not a visitor's request.
    let built: Promise<AppFiles> | undefined;
    let files: AppFiles | undefined;
    const build = () => {
      if (built) return built;
      built = buildApp();
      built.then(
        (app) => {
          files = app;
          const sizes = { scriptBytes: app.script.body.length, scriptGzipBytes: app.script.gzip.length };
          if (app.made === 'kept') log.info(sizes, 'web app as built before: its files are unchanged');
          else log.info({ ...sizes, ...(app.notKept && { notKept: app.notKept }) }, 'web app built');
        },
        (err: unknown) => {
          log.fatal({ err }, 'the web app could not be built');
          log.flush(() => process.exit(1));
        },
      );
      return built;
    };
    const app = async () => files ?? (await build());
    return {
      api: {
        service: 'web' as const,
        handlers: {
          async appPage({ ctx }) {
            const { page } = await app();
            ctx.type = 'text/html; charset=utf-8';
            ctx.set('Content-Security-Policy', POLICY);
            ctx.set('Cache-Control', 'no-cache');
            ctx.body = page;
          },
          appScript: async ({ ctx }) => serveStatic(ctx, (await app()).script),
          appStyle: async ({ ctx }) => serveStatic(ctx, (await app()).style),
          async appChunk({ ctx, params }) {
            const chunk = (await app()).chunks.get(params.file);
            // A chunk of an older build, asked by a page loaded before a restart: the page asks to be reloaded.
            if (!chunk) throw refuse.notFound(`part ${params.file} of the web app`);
            serveStatic(ctx, await chunk());
          },
        },
      },
      health: () => ({ webApp: files ? `${files.script.gzip.length} bytes of compressed script` : 'being built' }),
      attach: () => void build(),
      // A stop during the build waits for it: esbuild's process ends with it.
      close: async () => void (await built?.catch(() => undefined)),
    };
  };
}
