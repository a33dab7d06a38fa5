// What each workspace's package.json declares, and what its files import. The declarations are
// the one statement of the direction between packages (PACKAGE_FLOORS orders them); the files must
// keep to them, so a package never works only because npm hoisted another's dependency beside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagesNamedIn } from '../../packaging/package-names.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Manifest {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export function manifestOf(workspace: string): Manifest {
  const raw = JSON.parse(readFileSync(`${ROOT}${workspace === '.' ? '' : `${workspace}/`}package.json`, 'utf8')) as Partial<Manifest>;
  return { name: raw.name ?? workspace, dependencies: raw.dependencies ?? {}, devDependencies: raw.devDependencies ?? {} };
}

/** The npm packages a workspace's files import, apart by who imports them. */
export interface Uses {
  production: Set<string>;
  tests: Set<string>;
}

/** Dependencies that no file names but that something we run needs, each with why. */
const NEEDED_UNNAMED: Record<string, Record<string, string>> = {
  'collab-service': {
    events: "the editor's browser bundle: esbuild resolves ShareDB's require('events') to this package",
    chai: "ShareDB's own adapter suites, which test/sharedb-suite runs against our stores, require it",
    sinon: "ShareDB's own adapter suites require it",
    'ot-json1': "ShareDB's own adapter suites require it",
  },
  infra: {
    'y-protocols': 'a peer dependency of Hocuspocus, the collaboration peer the bench measures against',
  },
};

/**
 * Test code: test files, `test/` folders, `src/testing/` helpers, and the contract suites (which
 * import vitest). What they import may be a devDependency; what the rest imports may not. The
 * `testing` package is all test helpers, so its own imports are what it depends on.
 */
function isTestCode(workspace: string, file: string, text: string): boolean {
  if (workspace === 'packages/testing') return false;
  // The bench and the packer are tools of this repository's own (`npm run bench`, `npm run pack`), not part of what ships.
  if (file.startsWith('infra/bench/') || file.startsWith('infra/packaging/')) return true;
  return /\.test\.tsx?$/.test(file) || /\/(test|testing)\//.test(file) || /from ['"]vitest['"]/.test(text);
}

export function usesOf(workspace: string): Uses {
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', `${workspace}/*.ts`, `${workspace}/*.tsx`],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .split('\n')
    // The bench's peers are projects of their own, with their own package.json.
    .filter((file) => file && !file.startsWith('infra/bench/peers/'));
  const uses: Uses = { production: new Set(), tests: new Set() };
  const self = manifestOf(workspace).name;
  for (const file of new Set(files)) {
    let text: string;
    try {
      text = readFileSync(`${ROOT}${file}`, 'utf8');
    } catch {
      continue; // deleted in the work tree, still in the index
    }
    const into = isTestCode(workspace, file, text) ? uses.tests : uses.production;
    for (const name of packagesNamedIn(text)) if (name !== self) into.add(name);
  }
  for (const name of uses.production) uses.tests.delete(name);
  return uses;
}

/** `workspace: problem` for every import its package.json does not allow, and every declaration nothing imports. */
export function undeclared(workspace: string, uses: Uses, manifest: Manifest, rootTools: Manifest): string[] {
  const found: string[] = [];
  for (const name of uses.production) {
    if (!(name in manifest.dependencies)) found.push(`${workspace}: imports ${name} but does not list it in dependencies`);
  }
  for (const name of uses.tests) {
    const declared = name in manifest.dependencies || name in manifest.devDependencies;
    // The root's devDependencies are the tools every workspace's tests run on (vitest, fast-check…),
    // but a workspace of ours is always declared where it is used.
    const rootTool = !name.startsWith('@eventide/') && name in rootTools.devDependencies;
    if (!declared && !rootTool) found.push(`${workspace}: its tests import ${name}, which its package.json does not list`);
  }
  for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]) {
    // Type declarations are used by the compiler, not imported by name.
    if (name.startsWith('@types/') || NEEDED_UNNAMED[workspace]?.[name]) continue;
    if (!uses.production.has(name) && !uses.tests.has(name)) found.push(`${workspace}: lists ${name}, which none of its files imports`);
  }
  return found;
}
