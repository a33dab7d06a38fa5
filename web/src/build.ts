// Builds the web app from app/: the page as written, the style sheet, and the script minified
// (esbuild: Preact and the typed client, nothing else), each compressed once here (brotli and
// gzip: static-file.ts) so that serving them costs no compression per request. The script is
// split: what every visitor needs is /app.js; what only some pages need (the collaborative
// editor's ShareDB client) is a chunk under /app/, fetched when such a page opens, named by its
// content so that a browser keeps it for good.
//
// What a build makes is kept on disk (node_modules/.cache/eventide-web, beside the dependencies, as
// Node's compile cache is), with the size and time of every file it was made from: a start whose
// files are unchanged reads it instead of building again. Building cost each start about 95 ms
// before its first answer on two cores (esbuild's process and the compression compete for them;
// 12 interleaved pairs, 2026-12-01). Where the cache cannot be written (a read-only image), each
// start builds, as before.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedFile, type FileStamp, keptPlace, stampFiles } from '@eventide/kernel/file-stamps.ts';
import { staticFile, type StaticFile } from '@eventide/platform/http/static-file.ts';

export interface AppFiles {
  page: string;
  script: StaticFile;
  /** The chunks the script imports, by file name (served at /app/{file}), each compressed when first asked for. */
  chunks: ReadonlyMap<string, () => Promise<StaticFile>>;
  style: StaticFile;
  /** Built by this call, or read from what an earlier build kept. */
  made: 'built' | 'kept';
  /** Why a new build could not be kept for the next start, if it could not. */
  notKept?: string;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const ROOT = here('../../');

/** Where this checkout's build is kept: one file per checkout, as a drill's copy shares our node_modules. */
export const KEPT_BUILD = `${keptPlace(ROOT, 'eventide-web')}.json`;
/** Kept builds of other checkouts (drills' copies) left besides this one's, the newest first. */
const KEPT_OTHERS = 3;
const KEPT_FORMAT = 1;

/**
 * What a build is made from besides its script's modules: the page, the style sheet, how it is built
 * (this file) and compressed, and npm's record of the packages installed, which stands for theirs
 * (Preact's files change only with an install, which rewrites it).
 */
const OTHER_INPUTS = [
  'web/src/app/index.html',
  'web/src/app/app.css',
  relative(ROOT, fileURLToPath(import.meta.url)),
  'packages/platform/src/http/static-file.ts',
  'node_modules/.package-lock.json',
];

interface KeptFile extends Omit<StaticFile, 'body' | 'gzip' | 'brotli'> {
  /** Each in base64. */
  body: string;
  gzip: string;
  brotli: string;
}

interface KeptApp {
  format: typeof KEPT_FORMAT;
  root: string;
  inputs: FileStamp[];
  page: string;
  script: KeptFile;
  style: KeptFile;
  /** Each chunk's text, by file name. */
  chunks: Record<string, string>;
}

const keptFile = (file: StaticFile): KeptFile => ({
  ...file,
  body: file.body.toString('base64'),
  gzip: file.gzip.toString('base64'),
  brotli: file.brotli.toString('base64'),
});
const servedFile = (file: KeptFile): StaticFile => ({
  ...file,
  body: Buffer.from(file.body, 'base64'),
  gzip: Buffer.from(file.gzip, 'base64'),
  brotli: Buffer.from(file.brotli, 'base64'),
});

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

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const chunkFile = (text: string) => once(() => staticFile(JAVASCRIPT, text, FOR_GOOD));

/** The build kept at `path`, when every file it was made from is as it was then. */
async function readKept(path: string): Promise<AppFiles | undefined> {
  let kept: KeptApp;
  try {
    kept = JSON.parse(await readFile(path, 'utf8')) as KeptApp;
  } catch {
    return undefined;
  }
  if (kept.format !== KEPT_FORMAT || kept.root !== ROOT || changedFile(ROOT, kept.inputs) !== undefined) return undefined;
  return {
    page: kept.page,
    script: servedFile(kept.script),
    chunks: new Map(Object.entries(kept.chunks).map(([name, text]) => [name, chunkFile(text)] as const)),
    style: servedFile(kept.style),
    made: 'kept',
  };
}

/** Writes the build whole and then renames it, so that no start reads half of one; keeps a few of other checkouts'. */
async function keep(path: string, app: KeptApp): Promise<void> {
  const dir = join(path, '..');
  await mkdir(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}`;
  await writeFile(temporary, JSON.stringify(app), { mode: 0o644 });
  await rename(temporary, path);
  const others = await Promise.all(
    (await readdir(dir))
      .filter((name) => name.endsWith('.json') && join(dir, name) !== path)
      .map(async (name) => ({ name, at: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  others.sort((a, b) => b.at - a.at);
  for (const { name } of others.slice(KEPT_OTHERS)) await rm(join(dir, name), { force: true });
}

/**
 * The web app: the build kept at `keptAt` when its files are unchanged, else a new build, kept
 * there for the next start (`keptAt` null: neither read nor kept). A build that cannot be kept
 * (a read-only directory) is served all the same.
 */
export async function buildApp(keptAt: string | null = KEPT_BUILD): Promise<AppFiles> {
  const kept = keptAt ? await readKept(keptAt) : undefined;
  if (kept) return kept;
  const startedAt = Date.now();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    metafile: true,
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
  const main = result.outputFiles.find((file) => file.path === '/out/app.js')!;
  const chunks = result.outputFiles.filter((file) => file !== main);
  const app: AppFiles = {
    page: await readFile(here('app/index.html'), 'utf8'),
    script: await staticFile(JAVASCRIPT, main.text),
    // Compressed on first use, not at start: a visitor who never opens a document never needs it.
    chunks: new Map(chunks.map((file) => [basename(file.path), chunkFile(file.text)] as const)),
    style: await staticFile('text/css; charset=utf-8', await readFile(here('app/app.css'), 'utf8')),
    made: 'built',
  };
  if (keptAt) {
    try {
      const modules = Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('node_modules/'));
      await keep(keptAt, {
        format: KEPT_FORMAT,
        root: ROOT,
        inputs: stampFiles(ROOT, [...modules, ...OTHER_INPUTS], startedAt, 'the web app'),
        page: app.page,
        script: keptFile(app.script),
        style: keptFile(app.style),
        chunks: Object.fromEntries(chunks.map((file) => [basename(file.path), file.text])),
      });
    } catch (error) {
      // No room, a read-only directory: served all the same, and the next start builds again.
      app.notKept = (error as Error).message;
    }
  }
  return app;
}
