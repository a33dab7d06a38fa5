// Packs the subscriber SDK or the typed client as a package a downstream project installs:
//
//   npm run pack -- sdk      # or: client; writes dist/packages/eventide-sdk-<version>.tgz
//   npm run pack -- sdk --out /some/dir
//
// In the repository both are TypeScript that Node 24 runs as it is, importing the kernel, the
// contract and the stores by their workspace names. A downstream project has none of that: so
// tsdown bundles our own packages into the entry points (compiled to JavaScript that Node 20 and
// later run), with their declarations bundled beside them, and leaves every npm dependency
// external, listed in the package.json written here with the range the workspace uses. The
// result depends on nothing of this repository's.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'tsdown';
import { packagesNamedIn } from './package-names.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Packable {
  /** Entry name (the subpath a user imports; `index` is the package itself) → source file. */
  entries: Record<string, string>;
  /** `node` for the SDK (Kafka, sockets); `neutral` for the client, which browsers run too. */
  platform: 'node' | 'neutral';
  /** Dependencies only one entry needs: peers the user installs when they use that entry. */
  optionalPeers?: Record<string, string>;
  /** Commands the package installs (`npx <name>`), by name → entry. */
  bins?: Record<string, string>;
}

/** The packages a downstream project installs, by workspace name. */
export const PACKABLE: Record<string, Packable> = {
  sdk: {
    entries: { index: 'src/index.ts', metrics: 'src/metrics.ts', 'dead-letters-cli': 'src/dead-letters-cli.ts' },
    bins: { 'eventide-dead-letters': 'dead-letters-cli' },
    platform: 'node',
    optionalPeers: { 'prom-client': 'the `@eventide/sdk/metrics` entry, on the service’s own registry' },
  },
  client: { entries: { index: 'src/index.ts' }, platform: 'neutral' },
};

/** The oldest Node the packages are built for and tested on (infra/test/packages.e2e.test.ts). */
export const OLDEST_NODE = '20.19';

const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** Every version range our workspaces ask for, by package name: what the packed package asks for too. */
function workspaceRanges(): Map<string, string> {
  const ranges = new Map<string, string>();
  for (const workspace of manifest(`${ROOT}package.json`).workspaces as string[]) {
    const { dependencies = {}, devDependencies = {} } = manifest(`${ROOT}${workspace}/package.json`);
    for (const [name, range] of Object.entries({ ...devDependencies, ...dependencies }) as [string, string][]) {
      if (!name.startsWith('@eventide/')) ranges.set(name, range);
    }
  }
  return ranges;
}

/** The npm packages the built files import: static, dynamic and re-exports, in code and declarations. */
function importedPackages(dist: string): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(mjs|d\.mts)$/.test(file)) continue;
    for (const name of packagesNamedIn(readFileSync(join(dist, file), 'utf8'))) found.add(name);
  }
  return found;
}

export async function pack(name: string, out: string): Promise<string> {
  const spec = PACKABLE[name];
  if (!spec) throw new Error(`nothing to pack called ${name}: one of ${Object.keys(PACKABLE).join(', ')}`);
  const workspace = `${ROOT}packages/${name}`;
  const own = manifest(`${workspace}/package.json`);
  const staging = mkdtempSync(join(tmpdir(), `eventide-pack-${name}-`));
  try {
    await build({
      config: false,
      cwd: workspace,
      entry: spec.entries,
      outDir: join(staging, 'dist'),
      format: 'esm',
      platform: spec.platform,
      target: `node${OLDEST_NODE}`,
      dts: true,
      // Every npm package stays an import; our own workspaces are compiled in.
      deps: { neverBundle: true, alwaysBundle: [/^@eventide\//] },
      // .mjs and .d.mts whatever the platform, so that the exports below name the files built.
      fixedExtension: true,
      clean: true,
      logLevel: 'warn',
      // Quiet: the build is timed by whoever runs it.
      checks: { pluginTimings: false },
    });
    const dist = join(staging, 'dist');
    const ranges = workspaceRanges();
    const peers = spec.optionalPeers ?? {};
    const dependencies: Record<string, string> = {};
    for (const dependency of [...importedPackages(dist)].sort()) {
      if (dependency.startsWith('@eventide/')) throw new Error(`${name}: the build still imports ${dependency}`);
      if (dependency in peers) continue;
      const range = ranges.get(dependency);
      if (!range) throw new Error(`${name}: the build imports ${dependency}, which no workspace depends on`);
      dependencies[dependency] = range;
    }
    const files = (entry: string) => ({ types: `./dist/${entry}.d.mts`, default: `./dist/${entry}.mjs` });
    const commands = new Set(Object.values(spec.bins ?? {}));
    const exports = Object.fromEntries(
      Object.keys(spec.entries)
        .filter((entry) => !commands.has(entry))
        .map((entry) => [entry === 'index' ? '.' : `./${entry}`, files(entry)]),
    );
    const packed = {
      name: own.name,
      version: own.version,
      description: own.description,
      type: 'module',
      engines: { node: `>=${OLDEST_NODE}` },
      exports: { ...exports, './package.json': './package.json' },
      ...(spec.bins ? { bin: Object.fromEntries(Object.entries(spec.bins).map(([name, entry]) => [name, `./dist/${entry}.mjs`])) } : {}),
      types: './dist/index.d.mts',
      files: ['dist', 'README.md'],
      sideEffects: false,
      dependencies,
      ...(Object.keys(peers).length > 0
        ? {
            peerDependencies: Object.fromEntries(Object.keys(peers).map((peer) => [peer, ranges.get(peer)!])),
            peerDependenciesMeta: Object.fromEntries(Object.keys(peers).map((peer) => [peer, { optional: true }])),
          }
        : {}),
    };
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`);
    cpSync(`${workspace}/README.md`, join(staging, 'README.md'));
    mkdirSync(out, { recursive: true });
    const [result] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
        cwd: staging,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as { filename: string }[];
    return join(out, result!.filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length === 0) {
    console.error(`usage: npm run pack -- <${Object.keys(PACKABLE).join('|')}>… [--out dir]`);
    process.exit(2);
  }
  for (const name of positionals) console.log(await pack(name, resolve(values.out ?? `${ROOT}dist/packages`)));
}
