// Builds the web app from app/: the page as written, the style sheet, and the script minified
// (esbuild: Preact and the typed client, nothing else), each compressed once here (brotli and
// gzip: static-file.ts) so that serving them costs no compression per request. The script is
// split: what every visitor needs is /app.js; what only some pages need (the collaborative
// editor's ShareDB client) is a chunk under /app/, fetched when such a page opens, named by its
// content so that a browser keeps it for good.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staticFile, type StaticFile } from '@eventide/platform/http/static-file.ts';

export interface AppFiles {
  page: string;
  script: StaticFile;
  /** The chunks the script imports, by file name (served at /app/{file}), each compressed when first asked for. */
  chunks: ReadonlyMap<string, () => Promise<StaticFile>>;
  style: StaticFile;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** A chunk's name changes with its content: a browser may keep it as long as it likes. */
const FOR_GOOD = 'public, max-age=31536000, immutable';

/** `make`'s result, made on the first call; a failure is tried again on the next. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    made.catch(() => (made = undefined));
    return made;
  };
}

export async function buildApp(): Promise<AppFiles> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { app: here('app/main.tsx') },
    bundle: true,
    write: false,
    splitting: true,
    // Only the paths matter: /app.js imports ./app/<chunk>.js, which is where they are served.
    outdir: '/out',
    entryNames: '[name]',
    chunkNames: 'app/[name]-[hash]',
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
  const javascript = 'text/javascript; charset=utf-8';
  const main = result.outputFiles.find((file) => file.path === '/out/app.js')!;
  const chunks = result.outputFiles.filter((file) => file !== main);
  return {
    page: await readFile(here('app/index.html'), 'utf8'),
    script: await staticFile(javascript, main.text),
    // Compressed on first use, not at start: a visitor who never opens a document never needs it.
    chunks: new Map(chunks.map((file) => [basename(file.path), once(() => staticFile(javascript, file.text, FOR_GOOD))] as const)),
    style: await staticFile('text/css; charset=utf-8', await readFile(here('app/app.css'), 'utf8')),
  };
}
