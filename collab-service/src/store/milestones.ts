// ShareDB's milestone snapshots as each store keeps them (SQLite, PostgreSQL): a document as it was
// at a version or a time is read from the nearest milestone plus the ops after it, instead of
// replaying from version 0. ShareDB's four questions and their argument checks are answered here,
// once; a store says how to read the nearest milestone of each kind and how to save one.
import ShareDB from 'sharedb';

// ShareDB passes null for "no error"; its published types say undefined: either is accepted.
// biome-ignore lint/suspicious/noExplicitAny: ShareDB's callbacks take null or undefined for no error
type Callback = (error: any, snapshot?: unknown) => void;

export interface Milestone {
  id: string;
  v: number;
  m?: { mtime?: number } | null;
}

/**
 * The milestone a question asks for: the latest at or before a version, the first or the latest of
 * all, the latest at or before a time, the first at or after one.
 */
export type MilestoneRead = 'atOrBeforeVersion' | 'first' | 'latest' | 'atOrBeforeTime' | 'atOrAfterTime';

export abstract class KeptMilestones extends ShareDB.MilestoneDB {
  /** Read by ShareDB when a commit does not say whether to save a milestone; ours always says. */
  declare interval: number | undefined;

  /** The milestone `which` asks for (`bound`: its version or time), or undefined. */
  protected abstract read(which: MilestoneRead, collection: string, id: string, bound?: number): Promise<unknown>;
  protected abstract write(collection: string, snapshot: Milestone): Promise<void>;

  /** The latest milestone at or before `version` (null: the latest of all). */
  override getMilestoneSnapshot(collection: string, id: string, version: number | null | undefined, callback?: Callback): void {
    this.answer(callback, async () => {
      checkArguments(collection, id);
      if (version === null) return this.read('latest', collection, id);
      if (version === undefined || !(Number.isInteger(version) && version >= 0)) throw invalid('invalid version');
      return this.read('atOrBeforeVersion', collection, id, version);
    });
  }

  override saveMilestoneSnapshot(collection: string, snapshot: Milestone, callback?: Callback): void {
    const done: Callback =
      callback ??
      ((error) => {
        if (error) this.emit('error', error);
        else this.emit('save', collection, snapshot as never);
      });
    // Saving answers with no result at all: async.waterfall would pass even an `undefined` on.
    this.answer(
      (error) => done(error),
      async () => {
        if (!collection) throw invalid('missing collection');
        if (!snapshot) throw invalid('missing snapshot');
        await this.write(collection, snapshot);
      },
    );
  }

  /** The milestone closest before `timestamp` (null: the first of all, the document's beginning). */
  override getMilestoneSnapshotAtOrBeforeTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, async () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null ? this.read('first', collection, id) : this.read('atOrBeforeTime', collection, id, timestamp);
    });
  }

  /** The milestone closest after `timestamp` (null: the latest of all). */
  override getMilestoneSnapshotAtOrAfterTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, async () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null ? this.read('latest', collection, id) : this.read('atOrAfterTime', collection, id, timestamp);
    });
  }

  /** Answers later, as any I/O: never from inside the call. */
  private answer(callback: Callback | undefined, work: () => Promise<unknown>): void {
    work().then(
      (result) => {
        if (callback) setImmediate(callback, null, result);
      },
      (error: unknown) => {
        if (callback) setImmediate(callback, error);
        else this.emit('error', error as never);
      },
    );
  }
}

const invalid = (message: string) => Object.assign(new Error(message), { code: 'ERR_MILESTONE_ARGUMENT_INVALID' });

function checkArguments(collection: string, id: string, timestamp?: number | null): void {
  if (!collection) throw invalid('missing collection');
  if (!id) throw invalid('missing id');
  if (timestamp != null && !(typeof timestamp === 'number' && Number.isFinite(timestamp) && timestamp >= 0))
    throw invalid('invalid timestamp');
}
