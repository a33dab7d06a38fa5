// Builds the web app from app/: the page as written, the style sheet, and one minified script
// bundle (esbuild: Preact and the typed client, nothing else).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface AppFiles {
  page: string;
  script: string;
  style: string;
  scriptTag: string;
  styleTag: string;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const tag = (text: string) => `"${createHash('sha256').update(text).digest('base64url').slice(0, 16)}"`;

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
  const script = result.outputFiles[0]!.text;
  const style = await readFile(here('app/app.css'), 'utf8');
  const page = await readFile(here('app/index.html'), 'utf8');
  return { page, script, style, scriptTag: tag(script), styleTag: tag(style) };
}
