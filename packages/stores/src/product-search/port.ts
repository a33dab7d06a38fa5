// The product search port: live products by relevance to the words a person typed (each may be
// cut short; a long one may be misspelt: planner.ts). A read model of its own beside the
// documents: each adapter keeps its index from the product documents the projector writes, in
// the same write as them (SQLite: the same transaction; MongoDB: the same bulk write, on the
// product documents themselves), so a search never finds what a read would not, and a replayed
// write changes nothing. The read store knows nothing of it but that an index may follow a
// collection's writes (read-store/sqlite-indexes.ts).
import type { ReadDocument } from '../read-store/port.ts';

export interface SearchHit {
  doc: ReadDocument<'products'>;
  /** Higher is more relevant; comparable within one result only. */
  score: number;
}

export interface SearchResult {
  /** The best matches, most relevant first. */
  hits: SearchHit[];
  /**
   * False when the search stopped at its bound on work before it had read every product that
   * could hold the query's words (docs/api.md#search): an older product that holds them all may be
   * missing. A more specific query is read to its end.
   */
  complete: boolean;
}

export interface ProductSearch {
  /** The `limit` live products that best match `text`, most relevant first. */
  search(text: string, limit: number): Promise<SearchResult>;
}
