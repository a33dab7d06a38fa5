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

  constructor(id: string, version: number | string, seq: number | string, deleted: number | boolean, body: string) {
    this.id = id;
    this.version = Number(version);
    this.seq = Number(seq);
    this.deleted = deleted === 1 || deleted === true;
    this.#body = body;
  }

  get fields(): ReadFields[C] {
    this.#fields ??= JSON.parse(this.#body) as ReadFields[C];
    return this.#fields;
  }
}

export function toDocument<C extends Collection = Collection>(row: DocumentRow): ReadDocument<C> {
  return new StoredDocument<C>(row.id, row.version, row.seq, row.deleted, row.body);
}

/** A row read as an array, its columns in DocumentRow's order (SQLite's ROW). */
export type DocumentColumns = [id: string, version: number, seq: number, deleted: number, body: string];

/**
 * The same from a row read as an array. node:sqlite builds each row it gives as an object property
 * by property; as arrays, a page of 20 came in 24 µs against 35 alone, and GET /api/products on one
 * thread took 170-210 µs of CPU against 230-400 with objects, at 0.89-1.19 of the raw floor against
 * 0.42-0.63 (five interleaved rounds, 2026-12-01, 50,000 events).
 */
export function documentOfColumns<C extends Collection = Collection>(row: DocumentColumns): ReadDocument<C> {
  return new StoredDocument<C>(row[0], row[1], row[2], row[3], row[4]);
}
