// ShareDB milestone snapshots on PostgreSQL, beside the op log (postgres-db.ts, whose migration
// makes their table; milestones.ts answers ShareDB's questions).
import { KeptMilestones, type Milestone, type MilestoneRead } from './milestones.ts';
import type { Query } from './postgres-db.ts';

const SELECT = 'SELECT snapshot FROM sharedb_milestones WHERE collection = $1 AND id = $2';
const READS: Record<MilestoneRead, string> = {
  atOrBeforeVersion: `${SELECT} AND v <= $3 ORDER BY v DESC LIMIT 1`,
  first: `${SELECT} ORDER BY v LIMIT 1`,
  latest: `${SELECT} ORDER BY v DESC LIMIT 1`,
  atOrBeforeTime: `${SELECT} AND mtime <= $3 ORDER BY mtime DESC, v DESC LIMIT 1`,
  atOrAfterTime: `${SELECT} AND mtime >= $3 ORDER BY mtime, v LIMIT 1`,
};

export class PostgresMilestoneDb extends KeptMilestones {
  private readonly sql: Query;

  constructor(sql: Query) {
    super();
    this.sql = sql;
  }

  protected async read(which: MilestoneRead, collection: string, id: string, bound?: number): Promise<unknown> {
    const [row] = await this.sql<{ snapshot: unknown }>(READS[which], bound === undefined ? [collection, id] : [collection, id, bound]);
    return row?.snapshot;
  }

  protected async write(collection: string, snapshot: Milestone): Promise<void> {
    await this.sql(
      `INSERT INTO sharedb_milestones (collection, id, v, mtime, snapshot) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (collection, id, v) DO UPDATE SET mtime = excluded.mtime, snapshot = excluded.snapshot`,
      [collection, snapshot.id, snapshot.v, snapshot.m?.mtime ?? null, JSON.stringify(snapshot)],
    );
  }
}
