// ShareDB milestone snapshots on PostgreSQL, beside the op log (postgres-db.ts, whose migration
// makes their table): a document as it was at a version or a time is read from the nearest
// milestone plus the ops after it, instead of replaying from version 0.
import ShareDB from 'sharedb';
import type { Query } from './postgres-db.ts';

// ShareDB passes null for "no error"; its published types say undefined: either is accepted.
// biome-ignore lint/suspicious/noExplicitAny: ShareDB's callbacks take null or undefined for no error
type Callback = (error: any, snapshot?: unknown) => void;

interface Milestone {
  id: string;
  v: number;
  m?: { mtime?: number } | null;
}

const SELECT = 'SELECT snapshot FROM sharedb_milestones WHERE collection = $1 AND id = $2';
const STATEMENTS = {
  atOrBeforeVersion: `${SELECT} AND v <= $3 ORDER BY v DESC LIMIT 1`,
  first: `${SELECT} ORDER BY v LIMIT 1`,
  latest: `${SELECT} ORDER BY v DESC LIMIT 1`,
  atOrBeforeTime: `${SELECT} AND mtime <= $3 ORDER BY mtime DESC, v DESC LIMIT 1`,
  atOrAfterTime: `${SELECT} AND mtime >= $3 ORDER BY mtime, v LIMIT 1`,
};

export class PostgresMilestoneDb extends ShareDB.MilestoneDB {
  /** Read by ShareDB when a commit does not say whether to save a milestone; ours always says. */
  declare interval: number | undefined;

  private readonly sql: Query;

  constructor(sql: Query) {
    super();
    this.sql = sql;
  }

  /** The latest milestone at or before `version` (null: the latest of all). */
  override getMilestoneSnapshot(collection: string, id: string, version: number | null | undefined, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id);
      if (version === null) return this.one(STATEMENTS.latest, collection, id);
      if (version === undefined || !(Number.isInteger(version) && version >= 0)) throw invalid('invalid version');
      return this.one(STATEMENTS.atOrBeforeVersion, collection, id, version);
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
        await this.sql(
          `INSERT INTO sharedb_milestones (collection, id, v, mtime, snapshot) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (collection, id, v) DO UPDATE SET mtime = excluded.mtime, snapshot = excluded.snapshot`,
          [collection, snapshot.id, snapshot.v, snapshot.m?.mtime ?? null, JSON.stringify(snapshot)],
        );
      },
    );
  }

  /** The milestone closest before `timestamp` (null: the first of all, the document's beginning). */
  override getMilestoneSnapshotAtOrBeforeTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null
        ? this.one(STATEMENTS.first, collection, id)
        : this.one(STATEMENTS.atOrBeforeTime, collection, id, timestamp);
    });
  }

  /** The milestone closest after `timestamp` (null: the latest of all). */
  override getMilestoneSnapshotAtOrAfterTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null
        ? this.one(STATEMENTS.latest, collection, id)
        : this.one(STATEMENTS.atOrAfterTime, collection, id, timestamp);
    });
  }

  private async one(statement: string, ...params: (string | number)[]): Promise<unknown> {
    const [row] = await this.sql<{ snapshot: unknown }>(statement, params);
    return row?.snapshot;
  }

  private answer(callback: Callback | undefined, work: () => Promise<unknown>): void {
    let running: Promise<unknown>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
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
