// ShareDB's database on an embedded SQLite file: the op log and the current snapshots.
// Fit for one collab process (the embedded default); several processes need MongoDB and a
// shared pub/sub. A commit writes the op and the snapshot in one transaction and is on disk
// (synchronous=FULL by default) before ShareDB acknowledges the op to its client.
import ShareDB from 'sharedb';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LIMIT_PLACEHOLDER, openSqliteFile } from '@eventide/stores/sqlite-file.ts';
import { ACCESS_COLLECTION, DOCUMENTS_COLLECTION as DOCUMENTS, membersOf, type Membership, type MemberIndex } from './members.ts';
import { collabErrors } from '../errors.ts';
import { type Callback, listQuery, type StoredSnapshot, wantsMetadata } from './sharedb-db.ts';

export class SqliteShareDb extends ShareDB.DB implements MemberIndex {
  readonly db: DatabaseSync;
  private readonly statements: {
    version: StatementSync;
    snapshot: StatementSync;
    insertOp: StatementSync;
    upsertSnapshot: StatementSync;
    opsBetween: StatementSync;
    list: StatementSync;
    forgetMembers: StatementSync;
    addMember: StatementSync;
    documentsOf: StatementSync;
    ownedCount: StatementSync;
    oldestOp: StatementSync;
    charactersOwned: StatementSync;
  };
  private closed = false;

  constructor(path: string, synchronous: 'FULL' | 'NORMAL' = 'FULL') {
    super();
    this.db = openSqliteFile(path, synchronous);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sharedb_snapshots (
        collection TEXT NOT NULL, id TEXT NOT NULL, v INTEGER NOT NULL,
        type TEXT, data TEXT, m TEXT,
        PRIMARY KEY (collection, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS sharedb_ops (
        collection TEXT NOT NULL, id TEXT NOT NULL, v INTEGER NOT NULL, op TEXT NOT NULL,
        PRIMARY KEY (collection, id, v)) WITHOUT ROWID;`);
    this.ensureMembersIndex();
    this.statements = {
      version: this.db.prepare('SELECT v FROM sharedb_snapshots WHERE collection = ? AND id = ?'),
      snapshot: this.db.prepare('SELECT v, type, data, m FROM sharedb_snapshots WHERE collection = ? AND id = ?'),
      insertOp: this.db.prepare('INSERT INTO sharedb_ops (collection, id, v, op) VALUES (?, ?, ?, ?)'),
      // A deleted document keeps its row (type NULL) so that its version goes on from where it was.
      upsertSnapshot: this.db.prepare(`
        INSERT INTO sharedb_snapshots (collection, id, v, type, data, m) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (collection, id) DO UPDATE SET v = excluded.v, type = excluded.type, data = excluded.data, m = excluded.m`),
      oldestOp: this.db.prepare('SELECT MIN(v) AS v FROM sharedb_ops WHERE collection = ? AND id = ?'),
      opsBetween: this.db.prepare('SELECT v, op FROM sharedb_ops WHERE collection = ? AND id = ? AND v >= ? AND v < ? ORDER BY v'),
      list: this.db.prepare(
        `SELECT id, v, type, data, m FROM sharedb_snapshots WHERE collection = ? AND type IS NOT NULL ORDER BY id LIMIT ${LIMIT_PLACEHOLDER} OFFSET ?`,
      ),
      forgetMembers: this.db.prepare('DELETE FROM collab_members WHERE id = ?'),
      addMember: this.db.prepare('INSERT OR REPLACE INTO collab_members (user_id, id, role) VALUES (?, ?, ?)'),
      documentsOf: this.db.prepare(`SELECT id, role FROM collab_members WHERE user_id = ? ORDER BY id LIMIT ${LIMIT_PLACEHOLDER}`),
      // A deleted document (its snapshot kept, typeless, past version 0) is owned no more; one
      // claimed and not yet made counts already.
      ownedCount: this.db.prepare(`
        SELECT COUNT(*) AS n FROM collab_members c LEFT JOIN sharedb_snapshots s ON s.collection = ? AND s.id = c.id
        WHERE c.user_id = ? AND c.role = 'owner' AND NOT (s.type IS NULL AND COALESCE(s.v, 0) > 0)`),
      charactersOwned: this.db.prepare(`
        SELECT COALESCE(SUM(json_extract(s.m, '$.characters')), 0) AS n
        FROM collab_members c JOIN sharedb_snapshots s ON s.collection = ? AND s.id = c.id
        WHERE c.user_id = ? AND c.role = 'owner' AND s.type IS NOT NULL`),
    };
  }

  /** The documents a user owns or edits, by id; at most `limit`. */
  documentsOf(userId: string, limit: number): Promise<Membership[]> {
    return new Promise((resolve, reject) =>
      this.answer<Membership[]>(
        (error, rows) => (error ? reject(error) : resolve(rows!)),
        () =>
          (this.statements.documentsOf.all(userId, limit) as { id: string; role: Membership['role'] }[]).map(({ id, role }) => ({
            id,
            role,
          })),
      ),
    );
  }

  ownedCount(userId: string): Promise<number> {
    return this.count(() => (this.statements.ownedCount.get(DOCUMENTS, userId) as { n: number }).n);
  }

  charactersOwnedBy(userId: string): Promise<number> {
    return this.count(() => Number((this.statements.charactersOwned.get(DOCUMENTS, userId) as { n: number }).n));
  }

  private count(read: () => number): Promise<number> {
    return new Promise((resolve, reject) => this.answer<number>((error, n) => (error ? reject(error) : resolve(n!)), read));
  }

  private indexMembers(id: string, data: unknown): void {
    this.statements.forgetMembers.run(id);
    for (const { userId, role } of membersOf(data)) this.statements.addMember.run(userId, id, role);
  }

  /**
   * Who is on which document, from the access records, written in the same transaction as each
   * record's change: "my documents" is a lookup, not a scan of every record. A store from before
   * the index gets it, filled from its records, in one transaction (so a crash leaves none).
   */
  private ensureMembersIndex(): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      if (!this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'collab_members'").get()) {
        this.db.exec(`
          CREATE TABLE collab_members (
            user_id TEXT NOT NULL, id TEXT NOT NULL, role TEXT NOT NULL,
            PRIMARY KEY (user_id, id)) WITHOUT ROWID;
          CREATE INDEX collab_members_by_document ON collab_members (id);`);
        const add = this.db.prepare('INSERT OR REPLACE INTO collab_members (user_id, id, role) VALUES (?, ?, ?)');
        const records = this.db
          .prepare('SELECT id, data FROM sharedb_snapshots WHERE collection = ? AND type IS NOT NULL')
          .all(ACCESS_COLLECTION) as { id: string; data: string }[];
        for (const { id, data } of records) for (const { userId, role } of membersOf(JSON.parse(data))) add.run(userId, id, role);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  override close(callback?: Callback): void {
    if (!this.closed) {
      this.closed = true;
      this.db.close();
    }
    if (callback) process.nextTick(callback, null);
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
    this.answer(callback, () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const current = (this.statements.version.get(collection, id) as { v: number } | undefined)?.v ?? 0;
        if (snapshot.v !== current + 1 || op.v !== current) {
          this.db.exec('ROLLBACK');
          return false;
        }
        this.statements.insertOp.run(collection, id, op.v, JSON.stringify(op));
        this.statements.upsertSnapshot.run(
          collection,
          id,
          snapshot.v,
          snapshot.type,
          snapshot.type ? JSON.stringify(snapshot.data) : null,
          snapshot.m == null ? null : JSON.stringify(snapshot.m),
        );
        if (collection === ACCESS_COLLECTION) this.indexMembers(id, snapshot.type ? snapshot.data : undefined);
        this.db.exec('COMMIT');
        return true;
      } catch (error) {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  override getSnapshot(collection: string, id: string, fields: unknown, options: unknown, callback: Callback): void {
    this.answer(callback, () => this.readSnapshot(collection, id, wantsMetadata(fields, options)));
  }

  override getSnapshotBulk(collection: string, ids: string[], fields: unknown, options: unknown, callback: Callback): void {
    this.answer(callback, () => {
      const metadata = wantsMetadata(fields, options);
      return Object.fromEntries(ids.map((id) => [id, this.readSnapshot(collection, id, metadata)]));
    });
  }

  /**
   * Ops with from <= v < to (to null: all after from), in order, as far as the document goes: a
   * client may name a version it does not have yet, which ShareDB refuses itself once it sees the
   * ops end before it (as with sharedb-mongo). An error if any op in between is missing.
   */
  override getOps(collection: string, id: string, from: number | null, to: number | null, options: unknown, callback: Callback): void {
    this.answer(callback, () => {
      const start = from ?? 0;
      const current = this.versionOf(collection, id);
      const end = to == null ? current : Math.min(to, current);
      if (start >= end) return [];
      const rows = this.statements.opsBetween.all(collection, id, start, end) as { v: number; op: string }[];
      if (!rows[0] || rows[0].v > start) {
        // The ops from there were let go (the history kept is bounded): the client must reload.
        const oldest = this.statements.oldestOp.get(collection, id) as { v: number | null };
        throw collabErrors.historyGone(oldest.v ?? current);
      }
      if (rows.length < end - start) throw new Error(`missing ops for ${collection}/${id} between ${start} and ${end}`);
      const metadata = (options as { metadata?: boolean } | null)?.metadata;
      return rows.map(({ op }) => {
        const parsed = JSON.parse(op) as { m?: unknown };
        if (!metadata) delete parsed.m;
        return parsed;
      });
    });
  }

  /** The one query answered (sharedb-db.ts's listQuery). */
  override query = (collection: string, query: unknown, _fields: unknown, options: unknown, callback: ShareDB.DBQueryCallback): void => {
    this.answer(callback as Callback, () => {
      const { limit, skip } = listQuery(query);
      const metadata = (options as { metadata?: boolean } | null)?.metadata ?? false;
      const rows = this.statements.list.all(collection, limit, skip) as unknown as (Row & { id: string })[];
      return rows.map((row) => toSnapshot(row.id, row, metadata));
    });
  };

  private versionOf(collection: string, id: string): number {
    return (this.statements.version.get(collection, id) as { v: number } | undefined)?.v ?? 0;
  }

  private readSnapshot(collection: string, id: string, metadata: boolean) {
    const row = this.statements.snapshot.get(collection, id) as Row | undefined;
    return toSnapshot(id, row, metadata);
  }

  /**
   * ShareDB expects callbacks later, like any I/O. setImmediate, not nextTick: a burst of
   * reads and commits (one client's flood of ops) then takes turns with sockets and HTTP
   * requests, instead of running to its end before any other I/O is looked at.
   */
  private answer<T>(callback: Callback<T>, work: () => T): void {
    let result: T;
    try {
      if (this.closed) throw new Error('the collab database is closed');
      result = work();
    } catch (error) {
      setImmediate(callback, error as Error);
      return;
    }
    setImmediate(callback, null, result);
  }
}

interface Row {
  v: number;
  type: string | null;
  data: string | null;
  m: string | null;
}

function toSnapshot(id: string, row: Row | undefined, metadata: boolean): StoredSnapshot {
  return {
    id,
    v: row?.v ?? 0,
    type: row?.type ?? null,
    data: row?.type && row.data != null ? JSON.parse(row.data) : undefined,
    m: metadata && row?.m ? JSON.parse(row.m) : null,
  };
}
