// Stack traces with the sources' positions when the code runs from the start bundle
// (infra/src/start): its files carry no source maps for Node to read at every start (reading them
// cost the start 0.15-0.2 s), but have them beside them, read here only when a trace is logged.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the start bundles are kept (infra/src/start/manifest.ts); frames elsewhere are left as they are. */
const BUNDLED = '/node_modules/.cache/eventide-start/';
/** The maps kept parsed: a few megabytes each, and the frames of one trace are in a few files. */
const KEPT = 4;

const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (maps.has(file)) {
    const map = maps.get(file)!;
    // Most recently used last: the first is the one let go.
    maps.delete(file);
    maps.set(file, map);
    return map;
  }
  let map: SourceMap | null = null;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  } catch {
    // No map beside it (an older bundle, or one built without): the frame stays as it is.
  }
  maps.set(file, map);
  if (maps.size > KEPT) maps.delete(maps.keys().next().value!);
  return map;
}

/** A frame's location, `file:///…/chunk.js:12:34` or a path, with its line and column. */
const LOCATION = /((?:file:\/\/)?\/[^\s()]+?\.m?js):(\d+):(\d+)/g;

/**
 * `stack` with each position in a bundled file replaced by its source's (`packages/…/x.ts:10:5`,
 * as a file URL when the frame gave one); positions the maps do not know are left as they are.
 */
export function withSourcePositions(stack: string): string {
  if (!stack.includes(BUNDLED)) return stack;
  return stack.replace(LOCATION, (whole, where: string, line: string, column: string) => {
    if (!where.includes(BUNDLED)) return whole;
    const url = where.startsWith('file://');
    const file = url ? fileURLToPath(where) : where;
    // Stack positions count from 1; a map's from 0.
    const found = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!found || !('originalSource' in found) || !found.originalSource) return whole;
    // esbuild names each source from the map's directory.
    const source = fileURLToPath(new URL(found.originalSource, pathToFileURL(file)));
    return `${url ? pathToFileURL(source).href : source}:${found.originalLine + 1}:${found.originalColumn + 1}`;
  });
}
