// The history a document keeps (sharedb/history.ts decides when to trim it): the port each store
// implements. Versions count as ShareDB counts them: op v turns version v into v + 1, so keeping
// from version F keeps the ops with v >= F and the milestone snapshot at F that they start from.

export interface HistoryLimits {
  /** At most this many of the newest ops. */
  ops: number;
  /** And at most this many bytes of them, as stored; the newest op is kept whatever its size. */
  bytes: number;
}

export interface HistoryStore {
  /** The oldest version to keep, with `current` the document's version, so that what is kept fits `limits`. */
  keepFrom(collection: string, id: string, current: number, limits: HistoryLimits): Promise<number>;
  /** The time the document reached version `version` (its op's timestamp), if that op is kept. */
  reachedAt(collection: string, id: string, version: number): Promise<number | undefined>;
  /**
   * Lets go of the ops before version `from` and of the milestones other than the one at `from`
   * (which the caller saved), the newest and those at `keep` (named versions): every kept version
   * is then rebuilt from one of the first two, and each of `keep` is read as it is.
   */
  letGo(collection: string, id: string, from: number, keep: readonly number[]): Promise<void>;
  /** The milestones kept, newest first, with when the document reached each (ms), when known. */
  milestones(collection: string, id: string): Promise<Array<{ v: number; mtime?: number }>>;
  /** The version of the oldest op kept, if any: versions from there on can be rebuilt. */
  oldestOp(collection: string, id: string): Promise<number | undefined>;
  /** Lets go of all of a deleted document's ops and milestones: its snapshot (typeless) keeps its version. */
  forget(collection: string, id: string): Promise<void>;
}

/** From the newest op back: the sizes in order, and where they pass the limits. */
export function firstKept(current: number, newestFirst: Array<{ v: number; bytes: number }>, limits: HistoryLimits): number {
  // Never before the oldest op still kept: the history cannot be rebuilt from further back.
  const byCount = Math.max(0, current - limits.ops, newestFirst.at(-1)?.v ?? 0);
  let total = 0;
  for (const [index, { v, bytes }] of newestFirst.entries()) {
    total += bytes;
    if (total > limits.bytes && index > 0) return Math.max(byCount, v + 1);
  }
  return byCount;
}
