// ShareDB milestone snapshots in the embedded SQLite file, beside the op log (milestones.ts). Fit
// for one collab process, like the op log it sits beside.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { KeptMilestones, type Milestone, type MilestoneRead } from './milestones.ts';

const SELECT = 'SELECT snapshot FROM sharedb_milestones WHERE collection = ? AND id = ?';

export class SqliteMilestoneDb extends KeptMilestones {
  private readonly reads: Record<MilestoneRead, StatementSync>;
  private readonly save: StatementSync;

  constructor(db: DatabaseSync) {
    super();
    db.exec(`
      CREATE TABLE IF NOT EXISTS sharedb_milestones (
        collection TEXT NOT NULL, id TEXT NOT NULL, v INTEGER NOT NULL, mtime INTEGER, snapshot TEXT NOT NULL,
        PRIMARY KEY (collection, id, v)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS sharedb_milestones_by_time ON sharedb_milestones (collection, id, mtime);`);
    this.save = db.prepare('INSERT OR REPLACE INTO sharedb_milestones (collection, id, v, mtime, snapshot) VALUES (?, ?, ?, ?, ?)');
    this.reads = {
      atOrBeforeVersion: db.prepare(`${SELECT} AND v <= ? ORDER BY v DESC LIMIT 1`),
      first: db.prepare(`${SELECT} ORDER BY v LIMIT 1`),
      latest: db.prepare(`${SELECT} ORDER BY v DESC LIMIT 1`),
      atOrBeforeTime: db.prepare(`${SELECT} AND mtime <= ? ORDER BY mtime DESC, v DESC LIMIT 1`),
      atOrAfterTime: db.prepare(`${SELECT} AND mtime >= ? ORDER BY mtime, v LIMIT 1`),
    };
  }

  protected async read(which: MilestoneRead, collection: string, id: string, bound?: number): Promise<unknown> {
    const row = this.reads[which].get(collection, id, ...(bound === undefined ? [] : [bound])) as { snapshot: string } | undefined;
    return row ? JSON.parse(row.snapshot) : undefined;
  }

  protected async write(collection: string, snapshot: Milestone): Promise<void> {
    this.save.run(collection, snapshot.id, snapshot.v, snapshot.m?.mtime ?? null, JSON.stringify(snapshot));
  }
}
