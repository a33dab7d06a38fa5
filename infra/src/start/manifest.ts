// Which bundle of the start scripts is current (bundle.ts builds it) and whether it is still what
// the files make: read by every start before anything else loads, so it uses only Node's own modules
// and kernel/file-stamps.ts, which uses only them (a stat per input, one hash of the path).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { changedFile, type FileStamp, keptPlace } from '@eventide/kernel/file-stamps.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Where this checkout's bundles are kept, each in a directory of its own, and MANIFEST, which names
 * the current one. By checkout: a copy whose node_modules links to this one's (a drill's) must not
 * take its bundle, nor give it one.
 */
export const START_CACHE = keptPlace(ROOT, 'eventide-start');
export const MANIFEST = 'current.json';
export const MANIFEST_FORMAT = 1;

export interface StartManifest {
  format: typeof MANIFEST_FORMAT;
  /** The checkout it was built from: its code names its files by their full paths. */
  root: string;
  /** The bundle's directory under the cache. */
  dir: string;
  /** Each entry point (from the root) → its file in `dir`. */
  entries: Record<string, string>;
  /**
   * Every file of ours the bundle was made from (from the root), and npm's record of the packages
   * installed, which stands for theirs, each with its size and modification time then.
   */
  inputs: FileStamp[];
}

/**
 * The bundled file for `entry` (from the root), when the current bundle was made from the files as
 * they are now; otherwise why not. Costs a stat of each input: about 400, 3-5 ms.
 */
export function freshBundleOf(entry: string, cache = START_CACHE): { url: URL } | { stale: string } {
  let manifest: StartManifest;
  try {
    manifest = JSON.parse(readFileSync(join(cache, MANIFEST), 'utf8')) as StartManifest;
  } catch {
    return { stale: 'no bundle has been built yet' };
  }
  if (manifest.format !== MANIFEST_FORMAT || manifest.root !== ROOT) return { stale: 'the bundle was built for another checkout' };
  const file = manifest.entries[entry];
  if (!file) return { stale: `the bundle has no entry ${entry}` };
  const changed = changedFile(ROOT, manifest.inputs);
  if (changed !== undefined) return { stale: `${changed} changed since the bundle was built` };
  return { url: pathToFileURL(join(cache, manifest.dir, file)) };
}
