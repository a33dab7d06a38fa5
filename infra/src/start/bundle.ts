// The bundle the start scripts run: every module a service's entry point loads, ours and the npm
// packages', joined by esbuild into a few dozen files, kept under node_modules/.cache (it goes with
// the dependencies, as Node's compile cache does) and rebuilt when a file it was made from changes
// (launch.ts). Why: Node spends most of a start resolving and loading modules one by one, some
// 800 for `npm start`, and that cost goes with their number more than with their size. On two
// cores, from spawning the process to the first 200 (2026-12-01, four pairs): 0.95-1.10 s from
// the sources, 0.72-0.99 s from the bundle.
//
// Nothing changes for the code: each module still sees the location of its own source file
// (import.meta.url, and __dirname in the npm packages written in CommonJS), so its paths to files
// beside it, and to packages it requires itself, resolve as they do from the sources. A thread's
// entry named beside the code that starts it (`new Worker(new URL('./thread.ts', import.meta.url))`)
// becomes an entry of the bundle too, and the code starts the bundled one.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { stampFiles } from '@eventide/kernel/file-stamps.ts';
import { MANIFEST, MANIFEST_FORMAT, ROOT, START_CACHE, type StartManifest } from './manifest.ts';

/** The entry points the start scripts of package.json give launch.ts, from the repository's root. */
export const START_ENTRIES: string[] = Object.values(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
).flatMap((script) => /infra\/src\/start\/launch\.ts (\S+)$/.exec(script)?.[1] ?? []);

/**
 * Left to Node: packages with native code (their binaries are found from their own directory) and
 * esbuild, which the web app loads to build itself.
 */
const EXTERNAL = ['sharp', 'esbuild'];

/** The extension of the bundle's files. */
export const BUNDLE_EXTENSION = '.mjs';

/** How the bundle's code is written (and a test's bundle: infra/test/stack-sources.unit.test.ts). */
export const BUNDLE_OUTPUT = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  // Read only when a stack trace is logged (kernel/stack-sources.ts): Node reading them at every
  // start cost it 0.15-0.2 s, what the bundle saves.
  sourcemap: 'external',
  sourcesContent: false,
  // A third less text to read and compile: 40 ms of a start (five pairs). Names are kept, for the traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Under node_modules no package.json says "type": "module", so Node would first try each `.js`
  // file as CommonJS and look for its package.json; `.mjs` says ESM at once.
  outExtension: { '.js': BUNDLE_EXTENSION },
} as const satisfies BuildOptions;

/** npm's record of the packages it installed, rewritten by every install. */
const INSTALLED = 'node_modules/.package-lock.json';

/** Files whose change changes the bundle without being one of its inputs: this builder, the TypeScript settings esbuild reads, the scripts. */
const BUILD_INPUTS = ['infra/src/start/bundle.ts', 'tsconfig.json', 'package.json'];

/** Bundles kept besides the newest: a process started from one still loads its lazy parts from there. */
const KEPT = 3;

/** `infra/src/main.ts` → `infra.src.main`: every entry in one directory, so that they find each other and their chunks. */
const entryName = (path: string) => path.replace(/\.ts$/, '').replaceAll('/', '.');

/** A `new URL('<relative>', import.meta.url)`, the form in which our code names files beside it. */
const BESIDE = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;
/** Stands for the bundle file's own import.meta.url until the sources' ones are replaced. */
const OWN_URL = '__EVENTIDE_BUNDLE_FILE_URL__';

/**
 * Each module keeps its source's location; a thread entry named beside it is the bundled one.
 * The thread entries found that are not entries yet are collected, for another pass. Packages
 * imported dynamically are left to Node.
 */
function sourceLocations(entries: ReadonlySet<string>, found: Set<string>): Plugin {
  return {
    name: 'source-locations',
    setup(build) {
      // An npm package the code imports only when it needs it is loaded by Node then, as from the
      // sources: it costs the start nothing, and Node gives a CommonJS package's exports as named
      // ones, where esbuild's chunk of it would give only its default (simple-oauth2's classes).
      // Our workspaces (@eventide/*), which entry points import dynamically, are bundled.
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.kind === 'dynamic-import' && !args.path.startsWith('@eventide/') ? { path: args.path, external: true } : undefined,
      );
      build.onLoad({ filter: /\.(c|m)?(j|t)sx?$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const meta = text.includes('import.meta.url');
        const commonJsPaths = !/\.(m?ts|tsx|mjs)$/.test(args.path) && /\b__(dirname|filename)\b/.test(text);
        if (!meta && !commonJsPaths) return undefined;
        let contents = text;
        if (meta) {
          contents = contents.replace(BESIDE, (whole, _quote: string, spec: string) => {
            if (!/\.ts$/.test(spec)) return whole;
            const target = relative(ROOT, resolve(dirname(args.path), spec));
            if (!entries.has(target)) {
              found.add(target);
              return whole;
            }
            return `new URL('./${entryName(target)}${BUNDLE_EXTENSION}', ${OWN_URL})`;
          });
          contents = contents
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
            .replaceAll(OWN_URL, 'import.meta.url');
        }
        if (commonJsPaths) {
          contents = `var __filename = ${JSON.stringify(args.path)}, __dirname = ${JSON.stringify(dirname(args.path))};\n${contents}`;
        }
        const loader = /\.tsx$/.test(args.path) ? 'tsx' : /\.(m|c)?ts$/.test(args.path) ? 'ts' : 'js';
        return { contents, loader, resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Builds the bundle of START_ENTRIES into a new directory of `cache`, then makes it the current one. */
export async function buildStartBundle(cache = START_CACHE): Promise<{ manifest: StartManifest; files: number; ms: number }> {
  const started = performance.now();
  const startedAt = Date.now();
  mkdirSync(cache, { recursive: true });
  const dir = `${Date.now().toString(36)}-${process.pid}`;
  const out = join(cache, dir);
  const entries = new Set(START_ENTRIES);
  // A thread entry is found while bundling the code that starts it: one more pass then includes it.
  for (;;) {
    const found = new Set<string>();
    rmSync(out, { recursive: true, force: true });
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: Object.fromEntries([...entries].map((path) => [entryName(path), path])),
      ...BUNDLE_OUTPUT,
      splitting: true,
      outdir: out,
      external: EXTERNAL,
      metafile: true,
      logLevel: 'error',
      // For the npm packages written in CommonJS that require what is not bundled (Node's modules, EXTERNAL).
      banner: { js: "import { createRequire as __startRequire } from 'node:module'; const require = __startRequire(import.meta.url);" },
      plugins: [sourceLocations(entries, found)],
    });
    if (found.size === 0) {
      // The packages' files change only with an install, which rewrites npm's record of what it
      // installed: that file stands for them (about 2,200), and a start stats 400 files, not 2,600.
      const ours = Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('node_modules/'));
      // A file changed while it was being read makes the next start build the bundle again.
      const inputs = stampFiles(ROOT, [...ours, ...BUILD_INPUTS, INSTALLED], startedAt, 'the start bundle');
      const manifest: StartManifest = {
        format: MANIFEST_FORMAT,
        root: ROOT,
        dir,
        entries: Object.fromEntries([...entries].map((path) => [path, `${entryName(path)}${BUNDLE_EXTENSION}`])),
        inputs,
      };
      // Written whole, then renamed: a start never reads half a manifest.
      const temporary = join(cache, `${MANIFEST}.${process.pid}`);
      writeFileSync(temporary, JSON.stringify(manifest));
      renameSync(temporary, join(cache, MANIFEST));
      prune(cache, dir);
      return { manifest, files: Object.keys(result.metafile.inputs).length, ms: performance.now() - started };
    }
    for (const path of found) entries.add(path);
  }
}

/** Removes all but the newest KEPT bundles besides `current`. */
function prune(cache: string, current: string): void {
  const older = readdirSync(cache, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    // Another build may be removing one meanwhile: one gone is no longer counted.
    .flatMap((entry) => {
      const at = statSync(join(cache, entry.name), { throwIfNoEntry: false })?.mtimeMs;
      return at === undefined ? [] : [{ name: entry.name, at }];
    })
    .sort((a, b) => b.at - a.at);
  for (const { name } of older.slice(KEPT)) rmSync(join(cache, name), { recursive: true, force: true });
}
