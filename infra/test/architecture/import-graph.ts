// The repository's import graph as the compiler resolves it: `tsc --traceResolution` names every
// import of every file, type-only ones included (a lexer over type-stripped source would lose
// those, and the read side's reach into the write side's state types is one of them). From it:
// import cycles, and imports from one service into another.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The services: none may import another, and no package imports any; `infra` composes them all. */
export const SERVICES = ['command-service', 'query-service', 'projector', 'collab-service', 'web'] as const;

/**
 * The packages under `packages/`, on floors: a package may depend only on packages on lower floors,
 * so the direction is this list's order and a loop cannot be declared.
 */
export const PACKAGE_FLOORS = [['kernel'], ['stores', 'contract'], ['client', 'platform'], ['runtime', 'sdk']] as const;
/**
 * The test helpers' one home, beside the floors rather than on one: every workspace's tests (and
 * the bench and load tools) may use it, and it may use any package, so no code that ships may
 * depend on it (only devDependencies, and infra, which ships nothing).
 */
export const TEST_HELPERS = 'packages/testing';
export const PACKAGES = [...PACKAGE_FLOORS.flat().map((name) => `packages/${name}`), TEST_HELPERS];
/** Every workspace: the packages, the services, and infra on top. */
export const WORKSPACES = [...PACKAGES, ...SERVICES, 'infra'];

/** Each repository file (relative path) and the repository files it imports. */
export type ImportGraph = Map<string, Set<string>>;

export function importGraph(): ImportGraph {
  // The root's own compiler (a devDependency of the root package, so always installed there).
  const tsc = `${ROOT}node_modules/typescript/bin/tsc`;
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', '--traceResolution'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 512 * 2 ** 20,
  });
  if (run.status !== 0) throw new Error(`tsc failed (${run.status}): ${run.stderr || run.stdout.slice(-2000)}`);
  const graph: ImportGraph = new Map();
  let from: string | undefined;
  for (const line of run.stdout.split('\n')) {
    const resolving = /^======== Resolving module '.*' from '(.*)'\. ========$/.exec(line);
    if (resolving) {
      from = resolving[1];
      continue;
    }
    const resolved = /^======== Module name '.*' was successfully resolved to '(.*?)'/.exec(line);
    if (!resolved || !from) continue;
    const [source, target] = [from, resolved[1]!].map((file) => relative(ROOT, file));
    from = undefined;
    if (isOurs(source!) && isOurs(target!)) {
      if (!graph.has(source!)) graph.set(source!, new Set());
      graph.get(source!)!.add(target!);
    }
  }
  if (graph.size === 0) throw new Error('tsc traced no imports: has the trace format changed?');
  return graph;
}

const isOurs = (file: string) => !file.startsWith('..') && !file.includes('node_modules');

/** The workspace a file belongs to: its top-level folder, or `packages/<name>`. */
export const workspaceOf = (file: string) => /^(packages\/[^/]+|[^/]+)/.exec(file)![1]!;

/** Groups of files that import each other, round and round (Tarjan's strongly connected components). */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(next)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** `a -> b` for every import from a service or a package into a different service. */
export function crossServiceImports(graph: ImportGraph): string[] {
  const services: readonly string[] = SERVICES;
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const source = workspaceOf(from);
    if (!PACKAGES.includes(source) && !services.includes(source)) continue;
    for (const to of targets) if (services.includes(workspaceOf(to)) && workspaceOf(to) !== source) found.push(`${from} -> ${to}`);
  }
  return found.sort();
}

/** `service -> other` for every service whose package.json depends on another service, for tests too. */
export function crossServiceDependencies(): string[] {
  const found: string[] = [];
  for (const workspace of [...PACKAGES, ...SERVICES]) {
    const manifest = JSON.parse(readFileSync(`${ROOT}${workspace}/package.json`, 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
      const other = SERVICES.find((service) => name === `@eventide/${service}`);
      if (other && other !== workspace) found.push(`${workspace} -> ${other}`);
    }
  }
  return found.sort();
}

/**
 * The folder a source file stands in: its workspace and its first folder under src/, or the file
 * itself when it stands there alone (packages/kernel/ids.ts). Tests and test helpers (packages/testing, a service's src/testing/) are left
 * out: a test may reach across layers, the code it tests may not.
 */
export function folderOf(file: string): string | undefined {
  const match = /^((?:packages\/)?[^/]+)\/src\/([^/]+)/.exec(file);
  if (!match || /\.test\.ts$/.test(file) || match[2] === 'testing' || match[1] === TEST_HELPERS) return undefined;
  return `${match[1]}/${match[2]}`;
}

/** The import graph drawn between folders: a folder imports another when one of its files does. */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const source = folderOf(from);
    if (!source) continue;
    if (!folders.has(source)) folders.set(source, new Set());
    for (const to of targets) {
      const target = folderOf(to);
      if (target && target !== source) folders.get(source)!.add(target);
    }
  }
  return folders;
}

/** `a -> b` for every import between two folders that are in one loop: each is what keeps a loop closed. */
export function edgesInLoops(graph: ImportGraph): string[] {
  const loopOf = new Map<string, number>();
  cycles(graph).forEach((members, n) => {
    for (const member of members) loopOf.set(member, n);
  });
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (loopOf.has(from) && loopOf.get(from) === loopOf.get(to)) found.push(`${from} -> ${to}`);
  }
  return found.sort();
}
