// What the thread that commits to a SQLite file and the thread that checkpoints it share
// (on-a-thread.ts, thread.ts): two counters in shared memory, so that a commit tells the
// checkpointer with an atomic add and no message, and either side can tell whether the other runs.

/** Commits made to the file since it opened; the checkpointer waits on this cell. */
export const COMMITS = 0;
/** Whether a checkpointer thread runs: IDLE, RUNNING, or STOPPING once the store closes. */
export const STATE = 1;
export const IDLE = 0;
export const RUNNING = 1;
export const STOPPING = 2;

export interface CheckpointerData {
  path: string;
  synchronous: 'FULL' | 'NORMAL';
  /** An Int32Array's buffer of two cells: COMMITS and STATE. */
  cells: SharedArrayBuffer;
  /** How long commits gather before one checkpoint takes them all, ms. */
  gatherMs: number;
  /** How long the thread waits for a commit before it ends, ms. */
  idleMs: number;
}
