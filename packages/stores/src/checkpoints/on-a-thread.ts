// Checkpoints of a SQLite file's write-ahead log on a thread of their own. Left to SQLite, the
// commit that takes the log past 1,000 pages also checkpoints it, with an fsync of the database
// file, on the committing thread: for the read models that is the projector's, and an idle
// projector's lag p99 was 4.2-4.6 ms at 2,000 and 20,000 products where it was 2.0-2.5 without
// (2026-11-29). Here the committing connection never checkpoints; each commit adds to a counter in
// shared memory, and a checkpointer thread (thread.ts) wakes on it, lets commits gather for
// GATHER_MS, and checkpoints them all at once. The thread starts with the first commit and ends
// after IDLE_MS without one, so a store that is only read, or sits idle, pays no thread (about
// 19 MB). Should the thread fail, the connection checkpoints its commits itself again.
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';
import { COMMITS, type CheckpointerData, IDLE, RUNNING, STATE, STOPPING } from './cells.ts';

/** How long commits gather before one checkpoint takes them: the log then holds at most this much of them. */
export const GATHER_MS = 100;
/** How long the checkpointer waits for a commit before its thread ends. */
export const IDLE_MS = 30_000;
/** SQLite's own: a commit that takes the log past this many pages checkpoints it. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

export interface Checkpoints {
  /** Tells the checkpointer that `db` committed: call after each commit of a write. */
  committed(): void;
  /** Stops the checkpointer, if it runs, and waits for its thread to end. */
  close(): Promise<void>;
  /** Whether a checkpointer thread runs now (for health and tests). */
  running(): boolean;
}

/**
 * Takes the checkpoints of `db`, open on the file at `path`, off its thread. A database in
 * memory has no write-ahead log, and keeps SQLite's own behaviour.
 */
export function checkpointsOnAThread(
  db: DatabaseSync,
  path: string,
  synchronous: 'FULL' | 'NORMAL',
  { gatherMs = GATHER_MS, idleMs = IDLE_MS }: { gatherMs?: number; idleMs?: number } = {},
): Checkpoints {
  if (path === ':memory:') return { committed() {}, close: async () => {}, running: () => false };
  db.exec('PRAGMA wal_autocheckpoint = 0');
  const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const cells = new Int32Array(shared);
  let exited: Promise<void> = Promise.resolve();
  let running: Worker | undefined;
  let inline = false;

  function start(): void {
    const worker = new Worker(new URL('./thread.ts', import.meta.url), {
      workerData: { path, synchronous, cells: shared, gatherMs, idleMs } satisfies CheckpointerData,
    });
    // Never what keeps a process alive: a store that is closed stops it, and one that is not checkpoints at close.
    worker.unref();
    running = worker;
    let failed = false;
    worker.once('error', () => {
      failed = true;
    });
    exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        // A thread that failed (it could not open the file, a checkpoint threw) leaves the state
        // RUNNING: the connection checkpoints as SQLite would, from now on, rather than never.
        if ((failed || code !== 0) && Atomics.load(cells, STATE) !== STOPPING) {
          inline = true;
          if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
        }
        if (running === worker) running = undefined;
        resolve();
      }),
    );
  }

  return {
    committed() {
      if (inline) return;
      Atomics.add(cells, COMMITS, 1);
      Atomics.notify(cells, COMMITS, 1);
      if (Atomics.compareExchange(cells, STATE, IDLE, RUNNING) === IDLE) start();
    },
    async close() {
      Atomics.store(cells, STATE, STOPPING);
      // A change of the cell it waits on: a thread about to wait returns at once instead of missing the notify.
      Atomics.add(cells, COMMITS, 1);
      Atomics.notify(cells, COMMITS, 1);
      // Waited for, the thread keeps the process alive until it has closed its connection.
      running?.ref();
      await exited;
    },
    running: () => running !== undefined,
  };
}
