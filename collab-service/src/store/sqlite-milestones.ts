// ShareDB milestone snapshots in the embedded SQLite file, beside the op log: a document as it
// was at a version or a time is read from the nearest milestone plus the ops after it, instead
// of replaying from version 0. Fit for one collab process, like the op log it sits beside.
import ShareDB from 'sharedb';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

// ShareDB passes null for "no error"; its published types say undefined: either is accepted.
// biome-ignore lint/suspicious/noExplicitAny: ShareDB's callbacks take null or undefined for no error
type Callback = (error: any, snapshot?: unknown) => void;

interface Milestone {
  id: string;
  v: number;
  m?: { mtime?: number } | null;
}

export class SqliteMilestoneDb extends ShareDB.MilestoneDB {
  /** Read by ShareDB when a commit does not say whether to save a milestone; ours always says. */
  declare interval: number | undefined;

  private readonly statements: Record<
    'save' | 'atOrBeforeVersion' | 'first' | 'latest' | 'atOrBeforeTime' | 'atOrAfterTime',
    StatementSync
  >;

  constructor(db: DatabaseSync) {
    super();
    db.exec(`
      CREATE TABLE IF NOT EXISTS sharedb_milestones (
        collection TEXT NOT NULL, id TEXT NOT NULL, v INTEGER NOT NULL, mtime INTEGER, snapshot TEXT NOT NULL,
        PRIMARY KEY (collection, id, v)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS sharedb_milestones_by_time ON sharedb_milestones (collection, id, mtime);`);
    this.statements = {
      save: db.prepare('INSERT OR REPLACE INTO sharedb_milestones (collection, id, v, mtime, snapshot) VALUES (?, ?, ?, ?, ?)'),
      atOrBeforeVersion: db.prepare(
        'SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ? AND v <= ? ORDER BY v DESC LIMIT 1',
      ),
      first: db.prepare('SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ? ORDER BY v LIMIT 1'),
      latest: db.prepare('SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ? ORDER BY v DESC LIMIT 1'),
      atOrBeforeTime: db.prepare(
        'SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ? AND mtime <= ? ORDER BY mtime DESC, v DESC LIMIT 1',
      ),
      atOrAfterTime: db.prepare(
        'SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ? AND mtime >= ? ORDER BY mtime, v LIMIT 1',
      ),
    };
  }

  /** The latest milestone at or before `version` (null: the latest of all). */
  override getMilestoneSnapshot(collection: string, id: string, version: number | null | undefined, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id);
      if (version === null) return this.one(this.statements.latest, collection, id);
      if (version === undefined || !(Number.isInteger(version) && version >= 0)) throw invalid('invalid version');
      return this.one(this.statements.atOrBeforeVersion, collection, id, version);
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
      () => {
        if (!collection) throw invalid('missing collection');
        if (!snapshot) throw invalid('missing snapshot');
        this.statements.save.run(collection, snapshot.id, snapshot.v, snapshot.m?.mtime ?? null, JSON.stringify(snapshot));
      },
    );
  }

  /** The milestone closest before `timestamp` (null: the first of all, the document's beginning). */
  override getMilestoneSnapshotAtOrBeforeTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null
        ? this.one(this.statements.first, collection, id)
        : this.one(this.statements.atOrBeforeTime, collection, id, timestamp);
    });
  }

  /** The milestone closest after `timestamp` (null: the latest of all). */
  override getMilestoneSnapshotAtOrAfterTime(collection: string, id: string, timestamp: number | null, callback?: Callback): void {
    this.answer(callback, () => {
      checkArguments(collection, id, timestamp);
      return timestamp == null
        ? this.one(this.statements.latest, collection, id)
        : this.one(this.statements.atOrAfterTime, collection, id, timestamp);
    });
  }

  private one(statement: StatementSync, ...params: (string | number)[]): unknown {
    const row = statement.get(...params) as { snapshot: string } | undefined;
    return row ? JSON.parse(row.snapshot) : undefined;
  }

  private answer(callback: Callback | undefined, work: () => unknown): void {
    let result: unknown;
    try {
      result = work();
    } catch (error) {
      if (callback) process.nextTick(callback, error as Error);
      else this.emit('error', error as never);
      return;
    }
    if (callback) process.nextTick(callback, null, result);
  }
}

const invalid = (message: string) => Object.assign(new Error(message), { code: 'ERR_MILESTONE_ARGUMENT_INVALID' });

function checkArguments(collection: string, id: string, timestamp?: number | null): void {
  if (!collection) throw invalid('missing collection');
  if (!id) throw invalid('missing id');
  if (timestamp != null && !(typeof timestamp === 'number' && Number.isFinite(timestamp) && timestamp >= 0))
    throw invalid('invalid timestamp');
}
