// Which npm packages a file's text names: what the packer lists as a packed package's
// dependencies, and what the architecture test holds each workspace's package.json to.
import { builtinModules } from 'node:module';

// Every way a file names a package: static and dynamic imports, re-exports (with no space after `from` too, as
// bundles print it), vitest's mocks, require() and require.resolve(), and a require made by
// createRequire and called at once (as bundles print `const require = createRequire(…)`). Relative
// specifiers start with a dot and are left out.
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|vi\.(?:mock|doMock|importActual)\(\s*|\brequire\(\s*|\bcreateRequire\([^()]*\)\(\s*|\.resolve\(\s*)(['"])([^'".\n][^'"\n]*)\1/g;
const BUILTINS = new Set(builtinModules);
/** What an npm package's name may look like: leaves out a regular expression's text that the pattern above also matches. */
const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** `@scope/name/deep/path` → `@scope/name`; `name/deep` → `name`. */
export const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The npm packages `text` imports, Node's own modules left out. */
export function packagesNamedIn(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const name = packageOf(match[2]!);
    if (!name.startsWith('node:') && !BUILTINS.has(name) && NPM_NAME.test(name)) found.add(name);
  }
  return found;
}
