// One build of the start bundle at a time: a file created exclusively, which a start that finds the
// bundle stale takes before it starts a build (launch.ts), and the build removes when it ends. Ten
// starts at once (a test suite, a process manager) start one build, not ten.
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { START_CACHE } from './manifest.ts';

const LOCK = join(START_CACHE, 'building');
/** A build takes seconds: a lock this old was left by one that died, and is taken over. */
const ABANDONED_MS = 5 * 60_000;

/** `taken` when this process now holds the lock; `busy` when a build holds it; else why the lock cannot be made. */
export function takeBuildLock(): 'taken' | 'busy' | string {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(START_CACHE, { recursive: true });
      closeSync(openSync(LOCK, 'wx'));
      return 'taken';
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code !== 'EEXIST') return message;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs < ABANDONED_MS) return 'busy';
        rmSync(LOCK, { force: true });
      } catch (gone) {
        return (gone as Error).message;
      }
    }
  }
  return 'busy';
}

export function releaseBuildLock(): void {
  rmSync(LOCK, { force: true });
}
