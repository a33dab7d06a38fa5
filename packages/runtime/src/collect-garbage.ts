// After work that leaves large garbage behind, an idle process keeps it: V8 collects the old
// generation when allocation reaches its limit, and a process that then stands idle allocates
// nothing. An export is such work: each document's text passes through strings of its own size
// (read, parsed, written). Measured in CI (2026-11-27): an idle minute after people with
// megabyte documents took their exports, RSS 342 MiB against 218 before, with 156 of V8's 176
// MiB "used", that is not yet collected. This asks V8 for one full collection once such work
// has ended and no more of it follows for a moment: a busy process collects as it allocates.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long after the last such work the collection waits, so that a burst ends in one. */
const QUIET_MS = 2_000;

let collect: (() => void) | undefined;
let timer: NodeJS.Timeout | undefined;

/** V8's collector, exposed the first time it is needed (the flag must be set before the function is made). */
function collector(): () => void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/** Collects once, QUIET_MS after the last call; it never keeps the process alive. */
export function collectWhenQuiet(): void {
  clearTimeout(timer);
  timer = setTimeout(() => collector()(), QUIET_MS).unref();
}
