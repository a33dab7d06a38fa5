// Builds the web app from app/: the page as written, the style sheet, and one minified script
// bundle (esbuild: Preact and the typed client, nothing else), each compressed once here
// (brotli and gzip) so that serving them costs no compression per request.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface BuiltFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

export interface AppFiles {
  page: string;
  script: BuiltFile;
  style: BuiltFile;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

function built(type: string, text: string): BuiltFile {
  const body = Buffer.from(text);
  return {
    type,
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
  };
}

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
  return {
    page: await readFile(here('app/index.html'), 'utf8'),
    script: built('text/javascript; charset=utf-8', result.outputFiles[0]!.text),
    style: built('text/css; charset=utf-8', await readFile(here('app/app.css'), 'utf8')),
  };
}
