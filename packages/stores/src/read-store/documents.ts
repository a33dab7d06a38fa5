// A stored row as a document of its collection, as the SQL adapters read them: the body is the
// fields the projector wrote there, parsed when first read. A reader that already holds the
// document's representation at this version (query-service/src/handlers/rendered.ts) never parses
// it: parsing was a tenth of a page's CPU time.
import type { Collection, ReadDocument, ReadFields } from './port.ts';

/** A row's columns, as either driver gives them (PostgreSQL's bigints as text, SQLite's booleans as 0 and 1). */
export interface DocumentRow {
  id: string;
  version: number | string;
  seq: number | string;
  deleted: number | boolean;
  body: string;
}

export function toDocument<C extends Collection = Collection>(row: DocumentRow): ReadDocument<C> {
  const body = row.body;
  let fields: ReadFields[C] | undefined;
  return {
    id: row.id,
    version: Number(row.version),
    seq: Number(row.seq),
    deleted: row.deleted === 1 || row.deleted === true,
    get fields() {
      fields ??= JSON.parse(body) as ReadFields[C];
      return fields;
    },
  };
}
