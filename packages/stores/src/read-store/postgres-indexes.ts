// What the PostgreSQL read store keeps beside the documents in the transaction that writes them,
// knowing it only as this: a read model derived from one collection's documents (product search,
// product-search/postgres-index.ts), with columns on that collection's table and tables of its own
// in every generation. In the documents' transaction, a search never finds what a read would not,
// and a replayed write (which the store skips) changes nothing in the index either.
import type { Collection, DocumentWrite, ReadDocument } from './port.ts';

/** A statement in the batch's transaction. */
export type Query = <Row extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;

/** A document of the index's collection as it was stored before a write replaced it. */
export interface Replaced {
  deleted: boolean;
  /** The index's `before` expressions, read from the stored document. */
  before: Record<string, unknown>;
}

/** One batch of writes, as the index follows it. */
export interface PostgresIndexBatch {
  /** A write the store applied: of the index's collection, with what it replaced (undefined: it is new). */
  applied(write: DocumentWrite, replaced: Replaced | undefined): void;
  /** Writes what the batch changed, once, inside the batch's transaction, after the documents. */
  flush(query: Query): Promise<void>;
}

/** A column the index adds to its collection's table, written with each document. */
export interface IndexColumn {
  name: string;
  type: string;
  /** What is sent for a document: text, or null. */
  valueOf(doc: ReadDocument): string | null;
  /** The column's value from what was sent (`sent`, an SQL expression of type text). */
  from(sent: string): string;
}

export interface PostgresReadModelIndex {
  /** Its name, which the database records: a store opened without an index it keeps refuses to open. */
  name: string;
  /** The collection whose writes it follows. */
  collection: Collection;
  columns: readonly IndexColumn[];
  /** Its own tables in a generation, by name (without the generation): a promotion drops them with the documents. */
  tables: readonly string[];
  /** The SQL that makes its tables and indexes in `generation` (its columns' included), if they are not there. */
  schema(generation: number): string;
  /**
   * SQL expressions over the stored document (`body`, text) to read before a write replaces it, by
   * the name of the document's field they read: a document written earlier in the same batch is
   * read from its fields.
   */
  before: Readonly<Record<string, string>>;
  batch(generation: number): PostgresIndexBatch;
}
