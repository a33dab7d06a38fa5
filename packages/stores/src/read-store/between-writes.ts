// Work a read store's writes leave for later (its indexes' merging: sqlite-indexes.ts maintain),
// done one bounded step per turn of the event loop once a write has committed, for as long as the
// steps find work. A write, or a read, that arrives meanwhile waits for one step at most, not for
// all of it: done inside the writes, it was the tail of the projector's lag.
//
// A write announced (`expect`: the projector has events in hand) holds the steps until it comes.
// Without that, the step queued before the projector's own turn ran first: the projector waits a
// turn of the event loop to gather a batch (event-store/batches.ts), and in that turn a step that
// wrote a common word's postings (3.2-4.8 ms on the lag bench's 100,000 products, whatever the
// step's size in pages: FTS5 ends a step only between words) came between the commit of an append
// and its projection. The idle lag's p99 was those steps (2026-11-30).

/**
 * Runs `step(generation)` between writes: `after` each committed write (`leftWork`: whether it
 * gave the steps any), `stop` at close.
 */
export function betweenWrites(step: (generation: number) => boolean): {
  after(generation: number, leftWork: boolean): void;
  expect(): void;
  stop(): void;
} {
  let pending: NodeJS.Immediate | undefined;
  let generation = 0;
  let stopped = false;
  let writeExpected = false;
  /** Whether a step was held for a write, the work it had not done still there. */
  let heldBack = false;
  const run = () => {
    pending = undefined;
    if (writeExpected) {
      heldBack = true;
      return;
    }
    let more: boolean;
    try {
      more = step(generation);
    } catch {
      // A promotion dropped the generation, or another process holds the write lock past the busy
      // timeout: the work waits for the next write, which starts the steps again. Nothing is lost
      // meanwhile (FTS5 merges a level itself once it holds sixteen segments).
      more = false;
    }
    if (more) schedule();
  };
  const schedule = () => {
    // Unreferenced: work left for later never keeps a process alive on its own.
    if (!stopped && pending === undefined) pending = setImmediate(run).unref();
  };
  return {
    after(written, leftWork) {
      writeExpected = false;
      if (!leftWork && !heldBack) return;
      if (leftWork) generation = written;
      heldBack = false;
      schedule();
    },
    expect() {
      // Held until the next write, whichever it is: a projector that fails before writing
      // writes when it resumes, and until then nothing needs the steps (the backstop above).
      writeExpected = true;
    },
    stop() {
      stopped = true;
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
    },
  };
}
