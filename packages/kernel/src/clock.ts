// The time the parts that act on time read (the deadlines: command-service/src/deadlines). The
// system's, unless TEST_CLOCK_FILE names a file: then the number of milliseconds it holds is added
// to it, so that a test or a rehearsal moves the time of every process that names the file by
// rewriting it, and a deadline a day away passes in a moment. The file is read again whenever the
// time is asked and it has changed, and watched, so that what sleeps until a time wakes when the
// time jumps.
import { readFileSync, statSync, watch, writeFileSync, renameSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from './log.ts';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `listener` when the time has jumped (the file was rewritten); returns what stops it. */
  onJump(listener: () => void): () => void;
  close(): void;
}

export const systemClock: Clock = { now: () => Date.now(), onJump: () => () => {}, close() {} };

/** Reads an offset as the file holds it: a whole number of milliseconds, or nothing (0). */
function parseOffset(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^[+-]?\d{1,15}$/.test(trimmed))
    throw new Error(`it holds ${JSON.stringify(trimmed.slice(0, 40))}, not a whole number of milliseconds`);
  return Number(trimmed);
}

/** The system's time plus the offset the file holds (none while the file does not exist). */
export function fileClock(path: string, log: Logger): Clock {
  let offset = 0;
  let seen: string | undefined;
  const listeners = new Set<() => void>();

  /** Reads the file again if it changed since; true when the offset moved. */
  function refresh(): boolean {
    let stamp: string;
    try {
      const stat = statSync(path);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      stamp = 'absent';
    }
    if (stamp === seen) return false;
    seen = stamp;
    const before = offset;
    try {
      offset = stamp === 'absent' ? 0 : parseOffset(readFileSync(path, 'utf8'));
    } catch (error) {
      log.warn({ err: error, path }, 'TEST_CLOCK_FILE cannot be read as an offset; the clock keeps the one it had');
    }
    return offset !== before;
  }

  refresh();
  if (offset !== 0) log.warn({ path, offsetMs: offset }, 'the clock is moved by TEST_CLOCK_FILE (tests and rehearsals only)');
  // The directory is watched, not the file: a test replaces the file (write, then rename), which
  // a watch on the file itself would lose.
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_event, name) => {
      if (name !== null && name !== basename(path)) return;
      if (refresh()) for (const listener of listeners) listener();
    });
    watcher.unref();
  } catch (error) {
    log.warn({ err: error, path }, 'the directory of TEST_CLOCK_FILE cannot be watched: a jump is seen when the time is next asked');
  }
  return {
    now() {
      refresh();
      return Date.now() + offset;
    },
    onJump(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      watcher?.close();
      listeners.clear();
    },
  };
}

export function openClock(config: { TEST_CLOCK_FILE?: string | undefined }, log: Logger): Clock {
  return config.TEST_CLOCK_FILE ? fileClock(config.TEST_CLOCK_FILE, log) : systemClock;
}

/** What a test does to move the clocks of the processes that name `path`: writes the offset whole, at once. */
export function setClockOffset(path: string, offsetMs: number): void {
  const next = `${path}.${process.pid}.next`;
  writeFileSync(next, `${Math.round(offsetMs)}\n`);
  renameSync(next, path);
}
