// Builds the web app from app/: the page as written, the style sheet, and one minified script
// bundle (esbuild: Preact and the typed client, nothing else), each compressed once here
// (brotli and gzip: static-file.ts) so that serving them costs no compression per request.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { staticFile, type StaticFile } from '@eventide/platform/http/static-file.ts';

export interface AppFiles {
  page: string;
  script: StaticFile;
  style: StaticFile;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

export async function buildApp(): Promise<AppFiles> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [here('app/main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  // esbuild builds in a child process of its own, which would otherwise live as long as ours for
  // nothing: the app is built once.
  await esbuild.stop();
  return {
    page: await readFile(here('app/index.html'), 'utf8'),
    script: await staticFile('text/javascript; charset=utf-8', result.outputFiles[0]!.text),
    style: await staticFile('text/css; charset=utf-8', await readFile(here('app/app.css'), 'utf8')),
  };
}
