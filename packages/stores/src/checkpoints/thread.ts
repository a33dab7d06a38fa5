// The checkpointer's thread (on-a-thread.ts starts it): it waits for commits to its file, lets
// them gather for a moment, and moves what they wrote from the write-ahead log into the database
// file (a PASSIVE checkpoint: it waits for no reader and no writer, and none waits for it). The
// fsync that ends a checkpoint is spent here, not on the thread that commits. It ends once no
// commit came for a while; the next commit starts another.
import { workerData } from 'node:worker_threads';
import { openSqliteFile } from '../sqlite-file.ts';
import { COMMITS, type CheckpointerData, IDLE, RUNNING, STATE, STOPPING } from './cells.ts';

const { path, synchronous, cells: buffer, gatherMs, idleMs } = workerData as CheckpointerData;
const cells = new Int32Array(buffer);
/** Something to sleep on that nobody wakes. */
const pause = new Int32Array(new SharedArrayBuffer(4));

const db = openSqliteFile(path, synchronous);
// This connection writes nothing; but should it ever commit, it must not checkpoint on its own either.
db.exec('PRAGMA wal_autocheckpoint = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** Whether to go on once no commit came for idleMs: no, unless one came while the thread said it was idle. */
function stillWanted(seen: number): boolean {
  if (Atomics.compareExchange(cells, STATE, RUNNING, IDLE) !== RUNNING) return false;
  if (Atomics.load(cells, COMMITS) === seen) return false;
  // A commit came meanwhile: go on, unless the committing thread saw IDLE and started another.
  return Atomics.compareExchange(cells, STATE, IDLE, RUNNING) === IDLE;
}

try {
  // No count it has seen: the commit that started the thread is checkpointed first.
  let seen = -1;
  while (Atomics.load(cells, STATE) !== STOPPING) {
    // A blocking wait: this thread has nothing else to do, and a commit's notify wakes it at once.
    const woke = Atomics.wait(cells, COMMITS, seen, idleMs);
    if (Atomics.load(cells, STATE) === STOPPING) break;
    if (woke === 'timed-out') {
      if (stillWanted(seen)) continue;
      break;
    }
    Atomics.wait(pause, 0, 0, gatherMs);
    seen = Atomics.load(cells, COMMITS);
    checkpoint.get();
  }
} finally {
  db.close();
}
