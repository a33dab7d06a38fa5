// What the SQLite read store keeps beside the documents in the transaction that writes them,
// knowing it only as this: a read model derived from one collection's documents (product search,
// product-search/sqlite-index.ts), with tables of its own in every generation. In the documents'
// transaction, a search never finds what a read would not, and a replayed write (which the store
// skips) changes nothing in the index either.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Collection, DocumentWrite } from './port.ts';

export type Prepare = (sql: string) => StatementSync;

/** A document of the index's collection as it was stored before a write replaced it. */
export interface Replaced {
  deleted: boolean;
  /** The index's `before` expressions, read from the stored document. */
  before: Record<string, unknown>;
}

/** One batch of writes, as the index follows it. */
export interface IndexBatch {
  /** A write the store applied: of the index's collection, with what it replaced (undefined: it is new). */
  applied(write: DocumentWrite, replaced: Replaced | undefined): void;
  /** Writes what the batch changed, once, inside the batch's transaction. */
  flush(): void;
}

export interface SqliteReadModelIndex {
  /** Its name, which the file records: a store opened without an index the file keeps refuses to open. */
  name: string;
  /** The collection whose writes it follows. */
  collection: Collection;
  /** Its tables in a generation, by name (without the generation): a promotion drops them with the documents. */
  tables: readonly string[];
  /** The SQL that makes its tables in `generation`, if they are not there. */
  schema(generation: number): string;
  /**
   * Gives the generation a store is opened on what an older version of the index lacked; runs in
   * the opening transaction before schema(), and returns what to fill once schema() has run.
   */
  upgrade(db: DatabaseSync, generation: number): (() => void) | undefined;
  /** SQL expressions over the stored document (`body`) to read before a write replaces it, by name. */
  before: Readonly<Record<string, string>>;
  batch(prepare: Prepare, db: DatabaseSync, generation: number): IndexBatch;
  /**
   * Filling a generation in bulk (a rebuild, a seed): `startBulk` when it begins, `isBulk` for
   * whether it is under way, `settle` once when it ends (before a promotion, or when the store
   * that bulk-loads closes), `restore` to end one a killed process left behind, without settling.
   */
  startBulk(db: DatabaseSync, generation: number): void;
  isBulk(db: DatabaseSync, generation: number): boolean;
  settle(db: DatabaseSync, generation: number): void;
  restore(db: DatabaseSync, generation: number): void;
  /**
   * One bounded step of the work the index's writes leave for later (merging its segments), in a
   * transaction of its own between writes: whether it did any, so that the store runs another.
   * None while the generation is filled in bulk, whose work `settle` does at once.
   */
  maintain(prepare: Prepare, generation: number): boolean;
}
