// The services meet only in the packages: no service imports another, no package imports a
// service, no file imports itself round a cycle, and no folder imports itself round a loop of
// folders. The packages stand on floors (PACKAGE_FLOORS): each package.json declares what it depends
// on, only on lower floors, and its files import nothing else. The lists below are what still
// stands; nothing may be added to them, and an entry that is gone must be struck off, so that they
// only shrink. Tests that put services together live in infra, which composes the system.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  PACKAGE_FLOORS,
  PACKAGES,
  TEST_HELPERS,
  SERVICES,
  WORKSPACES,
  crossServiceDependencies,
  crossServiceImports,
  cycles,
  edgesInLoops,
  importGraph,
  folderGraph,
  type ImportGraph,
} from './import-graph.ts';
import { manifestOf, undeclared, usesOf } from './manifests.ts';

const KNOWN_CYCLES: string[] = [];

const KNOWN_CROSS_SERVICE_IMPORTS: string[] = [];

const KNOWN_CROSS_SERVICE_DEPENDENCIES: string[] = [];

/**
 * Imports between folders that stand in one loop: a folder that imports another which, through
 * others, imports it back. Issue 45 cut the 45 there were in shared and the 5 in the command and
 * collab services; none may come back.
 */
const KNOWN_FOLDER_LOOP_IMPORTS: string[] = [];

/** What is found but not known (new: fix it), and what is known but no longer found (strike it off). */
function against(found: string[], known: string[]) {
  return { new: found.filter((f) => !known.includes(f)), gone: known.filter((k) => !found.includes(k)) };
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// Built by the first test that needs it rather than in a beforeAll: a setup that cannot finish
// (it reads every file, and a busy machine once took it past its hook's bound) fails each test
// that needs it, with the reason, where a failed beforeAll had left them reported as skipped.
let built: ImportGraph | undefined;
const graph = (): ImportGraph => (built ??= importGraph());

describe('the import graph', () => {
  it('has no new import cycle', () => {
    expect(
      against(
        cycles(graph()).map((cycle) => cycle.join(' <-> ')),
        KNOWN_CYCLES,
      ),
    ).toEqual({ new: [], gone: [] });
  });

  it('has no new import from one service into another', () => {
    expect(against(crossServiceImports(graph()), KNOWN_CROSS_SERVICE_IMPORTS)).toEqual({ new: [], gone: [] });
  });

  it('has no new dependency of one service on another', () => {
    expect(against(crossServiceDependencies(), KNOWN_CROSS_SERVICE_DEPENDENCIES)).toEqual({ new: [], gone: [] });
  });

  it('has no import that closes a loop between folders, in any workspace', () => {
    expect(against(edgesInLoops(folderGraph(graph())), KNOWN_FOLDER_LOOP_IMPORTS)).toEqual({ new: [], gone: [] });
    // A guard against a check that passes because it drew nothing.
    expect(folderGraph(graph()).get('packages/platform/http')?.has('packages/platform/auth')).toBe(true);
  });

  it('sees what it checks: the compiler traced imports across the workspaces', () => {
    // A guard against a check that passes because it read nothing.
    expect(graph().get('query-service/src/main.ts')?.size).toBeGreaterThan(0);
    expect([...graph().values()].some((targets) => [...targets].some((t) => t.startsWith('packages/kernel/src/')))).toBe(true);
  });
});

const TEST_HELPERS_NAME = '@eventide/testing';

/** The floor of each package, by its npm name. */
const floorOf = new Map<string, number>(
  PACKAGE_FLOORS.flatMap((names, floor) => names.map((name) => [`@eventide/${name}`, floor] as const)),
);

describe('the packages', () => {
  it('each depends only on packages on lower floors, so no loop can be declared', () => {
    const found: string[] = [];
    for (const workspace of PACKAGES.filter((p) => p !== TEST_HELPERS)) {
      const manifest = manifestOf(workspace);
      const floor = floorOf.get(manifest.name);
      if (floor === undefined) {
        found.push(`${workspace}: ${manifest.name} stands on no floor`);
        continue;
      }
      for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]) {
        if (!name.startsWith('@eventide/')) continue;
        // The test helpers stand beside the floors (their own test below).
        if (name === TEST_HELPERS_NAME && name in manifest.devDependencies) continue;
        const theirs = floorOf.get(name);
        if (theirs === undefined || theirs >= floor)
          found.push(`${manifest.name} (floor ${floor}) -> ${name} (floor ${theirs ?? 'none: a service'})`);
      }
    }
    expect(found).toEqual([]);
  });

  it('keeps every test helper in one home that only tests (and infra, which ships nothing) depend on', () => {
    const found: string[] = [];
    for (const workspace of WORKSPACES.filter((w) => w !== 'infra' && w !== TEST_HELPERS)) {
      if (TEST_HELPERS_NAME in manifestOf(workspace).dependencies) found.push(`${workspace} ships a dependency on ${TEST_HELPERS_NAME}`);
    }
    for (const name of Object.keys(manifestOf(TEST_HELPERS).dependencies)) {
      if (name.startsWith('@eventide/') && !floorOf.has(name)) found.push(`${TEST_HELPERS} -> ${name}: a service's code is its own`);
    }
    // Elsewhere, a helper folder is a service's own, for its internals (the command side's deciders, its admins).
    const helperFolders = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*/testing/*'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(
        (file) => file && !file.startsWith(`${TEST_HELPERS}/`) && !SERVICES.some((service) => file.startsWith(`${service}/src/testing/`)),
      );
    found.push(...helperFolders.map((file) => `${file}: a test helper outside ${TEST_HELPERS}`));
    expect(found).toEqual([]);
  });

  it('no service depends on another, and every workspace is one the root knows', () => {
    const services: readonly string[] = SERVICES;
    const found: string[] = [];
    for (const workspace of services) {
      const manifest = manifestOf(workspace);
      for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]) {
        if (name.startsWith('@eventide/') && !floorOf.has(name) && name !== TEST_HELPERS_NAME) found.push(`${workspace} -> ${name}`);
      }
    }
    expect(found).toEqual([]);
    expect(
      [...(JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).workspaces as string[])].sort(),
    ).toEqual([...WORKSPACES].sort());
  });

  it('ships the SDK and the typed client without the Koa stack: they depend on no package that serves HTTP', () => {
    // Both are installed by other teams' services (npm run pack): what they run is what they need.
    const serving = ['@eventide/platform', '@eventide/runtime'];
    const found = ['packages/sdk', 'packages/client'].flatMap((workspace) =>
      Object.keys(manifestOf(workspace).dependencies)
        .filter((name) => serving.includes(name))
        .map((name) => `${workspace} -> ${name}`),
    );
    expect(found).toEqual([]);
  });

  it("every import is declared in its workspace's package.json, and every declaration is used", () => {
    const rootTools = manifestOf('.');
    const found = WORKSPACES.flatMap((workspace) => undeclared(workspace, usesOf(workspace), manifestOf(workspace), rootTools));
    expect(found).toEqual([]);
    // A guard against a check that passes because it read nothing.
    expect(usesOf('packages/platform').production.has('@eventide/kernel')).toBe(true);
  });

  it('keeps every source file under 400 lines, so that a file is one thing', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file && !file.startsWith('infra/bench/peers/') && existsSync(`${ROOT}${file}`));
    const long = files
      .map((file) => ({ file, lines: readFileSync(`${ROOT}${file}`, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
    expect(files.length).toBeGreaterThan(300);
  });
});
