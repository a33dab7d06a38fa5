import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freshBundleOf, MANIFEST, MANIFEST_FORMAT, ROOT, type StartManifest } from '../src/start/manifest.ts';

const caches: string[] = [];
afterEach(() => {
  for (const cache of caches.splice(0)) rmSync(cache, { recursive: true, force: true });
});

/** A cache whose manifest says the bundle was made from package.json as it is now, changed by `change`. */
function cacheWith(change: (manifest: StartManifest) => void = () => {}): string {
  const cache = mkdtempSync(join(tmpdir(), 'eventide-start-cache-'));
  caches.push(cache);
  const { size, mtimeMs } = statSync(join(ROOT, 'package.json'));
  const manifest: StartManifest = {
    format: MANIFEST_FORMAT,
    root: ROOT,
    dir: 'b1',
    entries: { 'infra/src/main.ts': 'infra.src.main.js' },
    inputs: [['package.json', size, mtimeMs]],
  };
  change(manifest);
  writeFileSync(join(cache, MANIFEST), JSON.stringify(manifest));
  return cache;
}

describe('the start bundle a start runs', () => {
  it('is the current one while every file it was made from is as it was', () => {
    const cache = cacheWith();
    expect(freshBundleOf('infra/src/main.ts', cache)).toEqual({ url: pathToFileURL(join(cache, 'b1', 'infra.src.main.js')) });
  });

  it('is none, saying why, once a file it was made from changed or went away', () => {
    expect(
      freshBundleOf(
        'infra/src/main.ts',
        cacheWith((m) => (m.inputs[0]![1] += 1)),
      ),
    ).toEqual({
      stale: 'package.json changed since the bundle was built',
    });
    expect(
      freshBundleOf(
        'infra/src/main.ts',
        cacheWith((m) => (m.inputs[0]![2] -= 1000)),
      ),
    ).toEqual({
      stale: 'package.json changed since the bundle was built',
    });
    expect(
      freshBundleOf(
        'infra/src/main.ts',
        cacheWith((m) => m.inputs.push(['no/such/file.ts', 1, 1])),
      ),
    ).toEqual({
      stale: 'no/such/file.ts changed since the bundle was built',
    });
  });

  it('is none for another checkout, another entry, or when nothing was built', () => {
    expect(
      freshBundleOf(
        'infra/src/main.ts',
        cacheWith((m) => (m.root = '/elsewhere/')),
      ),
    ).toEqual({
      stale: 'the bundle was built for another checkout',
    });
    expect(freshBundleOf('query-service/src/main.ts', cacheWith())).toEqual({ stale: 'the bundle has no entry query-service/src/main.ts' });
    const empty = mkdtempSync(join(tmpdir(), 'eventide-start-cache-'));
    caches.push(empty);
    expect(freshBundleOf('infra/src/main.ts', empty)).toEqual({ stale: 'no bundle has been built yet' });
  });
});
