// The API's description as a part of the process: GET /openapi.json, the document rendered by
// Swagger UI at /docs (its files from node_modules, nothing from a CDN), the page on
// versioning that v1's Deprecation link points at, and the events' description: GET
// /asyncapi.json, rendered at /docs/events. The files are read and compressed once, when
// the first request needs them (static-file.ts): no later request reads the disk, and a process
// that serves no docs spends neither the time at start nor the memory.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'koa';
import { serveStatic, staticFile, type StaticFile } from '@eventide/platform/http/static-file.ts';
import { V1_DEPRECATED_AT, V1_SUNSET_AT } from '@eventide/contract/versions.ts';
import type { Service, ServiceFactory } from './compose.ts';
import { openApiDocument } from '@eventide/contract/openapi.ts';
import { asyncApiDocument } from '@eventide/contract/asyncapi.ts';
import { eventsPage } from './events-page.ts';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ONLY_OWN =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const page = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}</head><body>${body}</body></html>`;

const DOCS_PAGE = page(
  'Eventide API',
  '<div id="swagger-ui"><p>Loading the API description…</p></div><script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script>',
  '<link rel="stylesheet" href="/docs/swagger-ui.css">',
);
// A file of its own: the page's policy allows no inline script.
const INIT_SCRIPT = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n";

const day = (date: Date) => date.toISOString().slice(0, 10);
const VERSIONING_PAGE = page(
  'API versions',
  `<main style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>API versions</h1>
<p>Version 2 is current: the paths without a version (<code>/users</code>) and <code>/v2/…</code> serve it.</p>
<p>Version 1 (<code>/v1/…</code>) is <strong>deprecated</strong> since ${day(V1_DEPRECATED_AT)} and stops answering on
${day(V1_SUNSET_AT)}. Its answers carry <code>Deprecation</code>, <code>Sunset</code> and a <code>Link</code> to the same
path under <code>/v2</code>.</p>
<h2>What changes from v1 to v2</h2>
<ul>
<li>Money: v1 gives decimal amounts and the order's currency apart (<code>"unitPrice": 12.5</code>); v2 gives integer minor
units with the currency (<code>{"amount": 1250, "currency": "EUR"}</code>), and each line's total.</li>
<li>Users and orders: v2 adds <code>createdAt</code>, <code>updatedAt</code>, <code>version</code> (the ETag), and
<code>deletedAt</code> on deleted ones.</li>
<li>Requests are the same in both. The unversioned paths also take <code>PATCH</code> (change some fields); <code>/v1</code> and <code>/v2</code> take <code>PUT</code>.</li>
<li>Why v1 goes: binary floating point cannot hold most cent amounts exactly, so a client summing v1 totals drifts.</li>
</ul>
<p>The whole API: <a href="/docs">/docs</a>.</p>
</main>`,
);

/** A day: the Swagger UI files change only with the package. */
const DAY = 'public, max-age=86400';

async function files() {
  const swagger = (file: string) => readFile(join(swaggerDir, file));
  const [bundle, style] = await Promise.all([swagger('swagger-ui-bundle.js'), swagger('swagger-ui.css')]);
  const [openApi, asyncApi, events, init, bundleFile, styleFile] = await Promise.all([
    staticFile('application/json', JSON.stringify(openApiDocument())),
    staticFile('application/json', JSON.stringify(asyncApiDocument())),
    staticFile('text/html; charset=utf-8', eventsPage()),
    staticFile('text/javascript; charset=utf-8', INIT_SCRIPT),
    staticFile('text/javascript; charset=utf-8', bundle, DAY),
    staticFile('text/css; charset=utf-8', style, DAY),
  ]);
  return { openApi, asyncApi, events, init, bundle: bundleFile, style: styleFile };
}

export function apiDocsService(): ServiceFactory<Service> {
  return async ({ log }) => {
    // Made by the first request that needs them (some 0.2 s of a core, 5 MB), and kept.
    let ready: ReturnType<typeof files> | undefined;
    const prepared = () => {
      if (!ready) {
        // A failure is logged once and tried again by the next request.
        ready = files();
        ready.catch((err: unknown) => {
          log.error({ err }, 'the API description files could not be prepared');
          ready = undefined;
        });
      }
      return ready;
    };
    const serve =
      (pick: (all: Awaited<ReturnType<typeof files>>) => StaticFile) =>
      async ({ ctx }: { ctx: Context }) =>
        serveStatic(ctx, pick(await prepared()));
    const page =
      (html: string) =>
      ({ ctx }: { ctx: Context }) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Content-Security-Policy', ONLY_OWN);
        ctx.body = html;
      };
    return {
      api: {
        service: 'docs' as const,
        handlers: {
          openApi: serve((all) => all.openApi),
          asyncApi: serve((all) => all.asyncApi),
          eventsPage: async ({ ctx }: { ctx: Context }) => {
            ctx.set('Content-Security-Policy', ONLY_OWN);
            await serveStatic(ctx, (await prepared()).events);
          },
          docsPage: page(DOCS_PAGE),
          versioningPage: page(VERSIONING_PAGE),
          docsAssetinitjs: serve((all) => all.init),
          docsAssetswaggeruibundlejs: serve((all) => all.bundle),
          docsAssetswaggeruicss: serve((all) => all.style),
        },
      },
      health: () => ({}),
      close: async () => {},
    };
  };
}
