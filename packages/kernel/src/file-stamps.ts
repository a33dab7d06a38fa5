// Whether files are still as they were when something was made from them (the start bundle, the
// web app's build): each file's size and modification time, taken when the thing was made and
// compared before it is used again. A stat per file; no file is read.
import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a checkout keeps what it made under `name`, beside its dependencies (node_modules/.cache,
 * as Node's compile cache): one place per checkout, as a drill's copy links to our node_modules.
 */
export const keptPlace = (root: string, name: string): string => join(root, 'node_modules/.cache', name, hash('sha1', root).slice(0, 12));

/** A file (its path from a root), its size, and its modification time in ms; -1 never matches. */
export type FileStamp = [path: string, size: number, mtimeMs: number];

/** Size and modification time of `path` under `root`, or undefined when it is not there. */
export function sizeAndTime(root: string, path: string): [number, number] | undefined {
  try {
    const { size, mtimeMs } = statSync(join(root, path));
    return [size, mtimeMs];
  } catch {
    return undefined;
  }
}

/**
 * The stamps of `paths` under `root` now, for `what` made from them since `since` (ms since the
 * epoch). A file modified since then gets -1: what was made may hold either version, so it never
 * counts as current. Throws, naming the file, when one is not there.
 */
export function stampFiles(root: string, paths: readonly string[], since: number, what: string): FileStamp[] {
  return paths.map((path) => {
    const now = sizeAndTime(root, path);
    if (!now) throw new Error(`${path} went away while ${what} was built`);
    return [path, now[0], now[1] >= since ? -1 : now[1]];
  });
}

/** The first file of `stamps` that is no longer as it was, or undefined when none changed. */
export function changedFile(root: string, stamps: readonly FileStamp[]): string | undefined {
  for (const [path, size, mtimeMs] of stamps) {
    const now = sizeAndTime(root, path);
    if (!now || now[0] !== size || now[1] !== mtimeMs) return path;
  }
  return undefined;
}
