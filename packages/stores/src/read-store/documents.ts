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

/**
 * A stored row as its collection's document, the body parsed when `fields` is first read. A class,
 * not an object literal with a getter: V8 made each such literal in about 400 ns against 20 for an
 * instance (2026-11-29), 8 µs of every page of 20. `fields` is the prototype's, so a spread of the
 * document would leave it out: spread its fields, as every reader does.
 */
class StoredDocument<C extends Collection> implements ReadDocument<C> {
  readonly id: string;
  readonly version: number;
  readonly seq: number;
  readonly deleted: boolean;
  readonly #body: string;
  #fields: ReadFields[C] | undefined;

  constructor(row: DocumentRow) {
    this.id = row.id;
    this.version = Number(row.version);
    this.seq = Number(row.seq);
    this.deleted = row.deleted === 1 || row.deleted === true;
    this.#body = row.body;
  }

  get fields(): ReadFields[C] {
    this.#fields ??= JSON.parse(this.#body) as ReadFields[C];
    return this.#fields;
  }
}

export function toDocument<C extends Collection = Collection>(row: DocumentRow): ReadDocument<C> {
  return new StoredDocument<C>(row);
}
