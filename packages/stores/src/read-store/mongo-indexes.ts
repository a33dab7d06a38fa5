// What the MongoDB read store keeps beside the documents, knowing it only as this: a read model
// derived from one collection's documents (product search, product-search/mongo.ts). Its fields
// are written on the documents themselves, in the same conditional write, so a skipped replay
// skips them too; what it keeps apart must be idempotent, written before the checkpoint moves.
import type { Db } from 'mongodb';
import type { Collection, DocumentWrite } from './port.ts';

export interface MongoReadModelIndex {
  /** The collection whose writes it follows. */
  collection: Collection;
  /** Fields to store on a document of that collection, beside the store's own: what its queries read. */
  fieldsOf(write: DocumentWrite): Record<string, unknown>;
  /** Its own collections in a generation, by name (without the generation): dropped with the generation. */
  collections: readonly string[];
  /** Makes its indexes in a generation (its own collections' and its fields' on the documents). */
  ensure(db: Db, generation: number): Promise<void>;
  /** After a batch's documents are written, before the checkpoint: must change nothing when the batch is replayed. */
  afterWrite(db: Db, generation: number, writes: DocumentWrite[]): Promise<void>;
}
