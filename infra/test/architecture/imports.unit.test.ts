// The two sides meet only in `shared`: no service imports another, no file imports itself round a
// cycle, and no folder imports itself round a loop of folders. The lists below are what still stands (issue 12 removes the rest); nothing may
// be added to them, and an entry that is gone must be struck off, so that they only shrink.
// Tests that put services together live in infra, which composes the system.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  crossServiceDependencies,
  crossServiceImports,
  cycles,
  edgesInLoops,
  importGraph,
  folderGraph,
  type ImportGraph,
} from './import-graph.ts';

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

let graph: ImportGraph;
beforeAll(() => {
  graph = importGraph();
}, 60_000);

describe('the import graph', () => {
  it('has no new import cycle', () => {
    expect(
      against(
        cycles(graph).map((cycle) => cycle.join(' <-> ')),
        KNOWN_CYCLES,
      ),
    ).toEqual({ new: [], gone: [] });
  });

  it('has no new import from one service into another', () => {
    expect(against(crossServiceImports(graph), KNOWN_CROSS_SERVICE_IMPORTS)).toEqual({ new: [], gone: [] });
  });

  it('has no new dependency of one service on another', () => {
    expect(against(crossServiceDependencies(), KNOWN_CROSS_SERVICE_DEPENDENCIES)).toEqual({ new: [], gone: [] });
  });

  it('has no import that closes a loop between folders, in any workspace', () => {
    expect(against(edgesInLoops(folderGraph(graph)), KNOWN_FOLDER_LOOP_IMPORTS)).toEqual({ new: [], gone: [] });
    // A guard against a check that passes because it drew nothing.
    expect(folderGraph(graph).get('shared/http')?.has('shared/api')).toBe(true);
  });

  it('sees what it checks: the compiler traced imports across the workspaces', () => {
    // A guard against a check that passes because it read nothing.
    expect(graph.get('query-service/src/main.ts')?.size).toBeGreaterThan(0);
    expect([...graph.values()].some((targets) => [...targets].some((t) => t.startsWith('shared/src/')))).toBe(true);
  });
});
