// Work a read store's writes leave for later (its indexes' merging: sqlite-indexes.ts maintain),
// done one bounded step per turn of the event loop once a write has committed, for as long as the
// steps find work. A write, or a read, that arrives meanwhile waits for one step at most, not for
// all of it: done inside the writes, it was the tail of the projector's lag.

/** Runs `step(generation)` between writes: `after` each committed write, `stop` at close. */
export function betweenWrites(step: (generation: number) => boolean): { after(generation: number): void; stop(): void } {
  let pending: NodeJS.Immediate | undefined;
  let generation = 0;
  let stopped = false;
  const run = () => {
    pending = undefined;
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
    after(written) {
      generation = written;
      schedule();
    },
    stop() {
      stopped = true;
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
    },
  };
}
