// ShareDB's database on PostgreSQL (DATABASE_URL): the op log, the current snapshots, the members
// index and the milestones, shared by every collab process on the database (their live ops meet
// over REDIS_URL's pub/sub, sharedb/pubsub.ts). A commit writes the op, the snapshot and, for an
// access record, who is on the document, in one transaction, committed before ShareDB acknowledges
// the op to its client.
//
// Ours rather than sharedb-postgres (6.0, maintained): that adapter has no milestones, no index of
// members written with the access records, no answer for ops let go by the bounded history (it
// returns fewer ops, silently), and no translation of an unreachable server; each of those is in
// its commit or its reads, so little of it would be left.
import ShareDB from 'sharedb';
import type pg from 'pg';
import { reaching } from '@eventide/stores/postgres/errors.ts';
import { migrate } from '@eventide/stores/postgres/migrations.ts';
import { openPool } from '@eventide/stores/postgres/pool.ts';
import { ACCESS_COLLECTION, DOCUMENTS_COLLECTION as DOCUMENTS, membersOf, type Membership, type MemberIndex } from './members.ts';
import { collabErrors } from '../errors.ts';
import { type Callback, listQuery, type StoredSnapshot, wantsMetadata } from './sharedb-db.ts';

const STORE = 'collaborative documents';
const UNIQUE_VIOLATION = '23505';

/** The documents' migration steps, in order; a new step is added at the end, never an old one changed. */
const COLLAB_STEPS: readonly string[] = [
  `CREATE TABLE sharedb_snapshots (
     collection text NOT NULL, id text NOT NULL, v integer NOT NULL,
     type text, data json, m jsonb,
     PRIMARY KEY (collection, id));
   CREATE TABLE sharedb_ops (
     collection text NOT NULL, id text NOT NULL, v integer NOT NULL, op json NOT NULL,
     PRIMARY KEY (collection, id, v));
   CREATE TABLE collab_members (
     user_id text NOT NULL, id text NOT NULL, role text NOT NULL,
     PRIMARY KEY (user_id, id));
   CREATE INDEX collab_members_by_document ON collab_members (id);
   CREATE TABLE sharedb_milestones (
     collection text NOT NULL, id text NOT NULL, v integer NOT NULL, mtime bigint, snapshot json NOT NULL,
     PRIMARY KEY (collection, id, v));
   CREATE INDEX sharedb_milestones_by_time ON sharedb_milestones (collection, id, mtime);`,
];

interface Row {
  v: number;
  type: string | null;
  data: unknown;
  m: unknown;
}

function toSnapshot(id: string, row: Row | undefined, metadata: boolean): StoredSnapshot {
  return {
    id,
    v: row?.v ?? 0,
    type: row?.type ?? null,
    data: row?.type && row.data != null ? row.data : undefined,
    m: metadata && row?.m ? row.m : null,
  };
}

export type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;

export class PostgresShareDb extends ShareDB.DB implements MemberIndex {
  private closed = false;
  /** A statement on the pool, its failure to reach the server translated. */
  readonly sql: Query;

  /** Opens the pool and brings the schema up to this release's. */
  static async open(url: string): Promise<PostgresShareDb> {
    const pool = openPool(url, 10);
    await reaching(STORE, () => migrate(pool, 'collab', COLLAB_STEPS));
    return new PostgresShareDb(pool);
  }

  readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    super();
    this.pool = pool;
    this.sql = async (text, values) => (await reaching(STORE, () => pool.query(text, values))).rows;
  }

  /** Answers ShareDB's callback from a promise, later, as any I/O: never from inside the call. */
  private answer<T>(callback: Callback<T>, work: () => Promise<T>): void {
    const running = this.closed ? Promise.reject(new Error('the collab database is closed')) : work();
    running.then(
      (result) => setImmediate(callback, null, result),
      (error: unknown) => setImmediate(callback, error),
    );
  }

  documentsOf(userId: string, limit: number): Promise<Membership[]> {
    return this.sql<Membership>('SELECT id, role FROM collab_members WHERE user_id = $1 ORDER BY id LIMIT $2', [userId, limit]);
  }

  // A deleted document (its snapshot kept, typeless, past version 0) is owned no more; one claimed
  // and not yet made counts already.
  async ownedCount(userId: string): Promise<number> {
    const [row] = await this.sql<{ n: string }>(
      `SELECT count(*) AS n FROM collab_members c LEFT JOIN sharedb_snapshots s ON s.collection = $1 AND s.id = c.id
        WHERE c.user_id = $2 AND c.role = 'owner' AND NOT (s.type IS NULL AND coalesce(s.v, 0) > 0)`,
      [DOCUMENTS, userId],
    );
    return Number(row!.n);
  }

  async charactersOwnedBy(userId: string): Promise<number> {
    const [row] = await this.sql<{ n: string }>(
      `SELECT coalesce(sum(CASE WHEN jsonb_typeof(s.m->'characters') = 'number' THEN (s.m->>'characters')::numeric END), 0) AS n
         FROM collab_members c JOIN sharedb_snapshots s ON s.collection = $1 AND s.id = c.id
        WHERE c.user_id = $2 AND c.role = 'owner' AND s.type IS NOT NULL`,
      [DOCUMENTS, userId],
    );
    return Number(row!.n);
  }

  override close(callback?: Callback): void {
    const ending = this.closed ? Promise.resolve() : this.pool.end();
    this.closed = true;
    ending.then(
      () => callback?.(null),
      (error: unknown) => callback?.(error),
    );
  }

  /** Writes the op and the snapshot if the snapshot is the next version; `false` if another commit won. */
  override commit(
    collection: string,
    id: string,
    op: { v: number },
    snapshot: StoredSnapshot,
    _options: unknown,
    callback: Callback<boolean>,
  ): void {
    this.answer(callback, () =>
      reaching(STORE, async () => {
        const client = await this.pool.connect();
        try {
          await client.query('BEGIN');
          // Locks the document's row: a concurrent commit of it waits here, then sees this one's version.
          const { rows } = await client.query<{ v: number }>(
            'SELECT v FROM sharedb_snapshots WHERE collection = $1 AND id = $2 FOR UPDATE',
            [collection, id],
          );
          const current = rows[0]?.v ?? 0;
          if (snapshot.v !== current + 1 || op.v !== current) {
            await client.query('ROLLBACK');
            return false;
          }
          await client.query('INSERT INTO sharedb_ops (collection, id, v, op) VALUES ($1, $2, $3, $4)', [
            collection,
            id,
            op.v,
            JSON.stringify(op),
          ]);
          // A deleted document keeps its row (type NULL) so that its version goes on from where it was.
          await client.query(
            `INSERT INTO sharedb_snapshots (collection, id, v, type, data, m) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (collection, id) DO UPDATE SET v = excluded.v, type = excluded.type, data = excluded.data, m = excluded.m`,
            [
              collection,
              id,
              snapshot.v,
              snapshot.type,
              snapshot.type ? JSON.stringify(snapshot.data) : null,
              snapshot.m == null ? null : JSON.stringify(snapshot.m),
            ],
          );
          if (collection === ACCESS_COLLECTION) {
            await client.query('DELETE FROM collab_members WHERE id = $1', [id]);
            const members = membersOf(snapshot.type ? snapshot.data : undefined);
            if (members.length > 0) {
              await client.query(
                `INSERT INTO collab_members (user_id, id, role) SELECT u, $1, r FROM unnest($2::text[], $3::text[]) AS m(u, r)
                 ON CONFLICT (user_id, id) DO UPDATE SET role = excluded.role`,
                [id, members.map((m) => m.userId), members.map((m) => m.role)],
              );
            }
          }
          await client.query('COMMIT');
          return true;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          // Two first commits of one document: the one that lost finds the other's op or row.
          if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
          throw error;
        } finally {
          client.release();
        }
      }),
    );
  }

  override getSnapshot(collection: string, id: string, fields: unknown, options: unknown, callback: Callback): void {
    this.answer(callback, async () => {
      const [row] = await this.sql<Row>('SELECT v, type, data, m FROM sharedb_snapshots WHERE collection = $1 AND id = $2', [
        collection,
        id,
      ]);
      return toSnapshot(id, row, wantsMetadata(fields, options));
    });
  }

  override getSnapshotBulk(collection: string, ids: string[], fields: unknown, options: unknown, callback: Callback): void {
    this.answer(callback, async () => {
      const rows = await this.sql<Row & { id: string }>(
        'SELECT id, v, type, data, m FROM sharedb_snapshots WHERE collection = $1 AND id = ANY($2::text[])',
        [collection, ids],
      );
      const found = new Map(rows.map((row) => [row.id, row]));
      const metadata = wantsMetadata(fields, options);
      return Object.fromEntries(ids.map((id) => [id, toSnapshot(id, found.get(id), metadata)]));
    });
  }

  /**
   * Ops with from <= v < to (to null: all after from), in order, as far as the document goes: a
   * client may name a version it does not have yet, which ShareDB refuses itself once it sees the
   * ops end before it. An error if any op in between is missing; the history-gone error if the
   * ops from there were let go (the history kept is bounded), so that the client reloads.
   */
  override getOps(collection: string, id: string, from: number | null, to: number | null, options: unknown, callback: Callback): void {
    this.answer(callback, async () => {
      const start = from ?? 0;
      const [snapshot] = await this.sql<{ v: number }>('SELECT v FROM sharedb_snapshots WHERE collection = $1 AND id = $2', [
        collection,
        id,
      ]);
      const current = snapshot?.v ?? 0;
      const end = to == null ? current : Math.min(to, current);
      if (start >= end) return [];
      const rows = await this.sql<{ v: number; op: { m?: unknown } }>(
        'SELECT v, op FROM sharedb_ops WHERE collection = $1 AND id = $2 AND v >= $3 AND v < $4 ORDER BY v',
        [collection, id, start, end],
      );
      if (!rows[0] || rows[0].v > start) {
        const [oldest] = await this.sql<{ v: number | null }>('SELECT min(v) AS v FROM sharedb_ops WHERE collection = $1 AND id = $2', [
          collection,
          id,
        ]);
        throw collabErrors.historyGone(oldest?.v ?? current);
      }
      if (rows.length < end - start) throw new Error(`missing ops for ${collection}/${id} between ${start} and ${end}`);
      const metadata = (options as { metadata?: boolean } | null)?.metadata;
      return rows.map(({ op }) => {
        if (!metadata) delete op.m;
        return op;
      });
    });
  }

  /** The one query answered (sharedb-db.ts's listQuery). */
  override query = (collection: string, query: unknown, _fields: unknown, options: unknown, callback: ShareDB.DBQueryCallback): void => {
    this.answer(callback as Callback, async () => {
      const { limit, skip } = listQuery(query);
      const metadata = (options as { metadata?: boolean } | null)?.metadata ?? false;
      const rows = await this.sql<Row & { id: string }>(
        'SELECT id, v, type, data, m FROM sharedb_snapshots WHERE collection = $1 AND type IS NOT NULL ORDER BY id LIMIT $2 OFFSET $3',
        [collection, limit, skip],
      );
      return rows.map((row) => toSnapshot(row.id, row, metadata));
    });
  };
}
