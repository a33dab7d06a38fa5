// The list orders and keys (kernel/list-orders.ts) as the read stores use them: each engine keeps
// the keys as columns (SQLite, PostgreSQL) or fields (MongoDB) derived from the document, indexes
// them with and without the filterable fields, and pages by keyset on (the sort's keys, seq), so a
// page costs the same at any depth and any size of the store. Folding ASCII only, and comparing
// bytes, is what all three do alike: SQLite's lower() folds only ASCII, PostgreSQL compares with
// COLLATE "C", MongoDB's default comparison is binary.
import { LIST_KEYS, type ListKey, sortsOf } from '@eventide/kernel/list-orders.ts';
import type { Collection, ListOrder, ListPosition, ReadDocument } from './port.ts';

export type { KeyConditions, ListOrder, ListPosition } from './port.ts';

export { sortsOf, type ListKey };

/** The keys a collection keeps: none for most. */
export const listKeysOf = (collection: Collection): Readonly<Record<string, ListKey>> =>
  (LIST_KEYS as Readonly<Record<string, Record<string, ListKey>>>)[collection] ?? {};

/** ASCII capitals to small letters, nothing else: what SQLite's lower() does. */
export const foldAscii = (text: string) => text.replace(/[A-Z]+/g, (capitals) => capitals.toLowerCase());

/** The value of a key for a document's fields, as the engines keep it (null when the path is absent). */
export function keyValue(key: ListKey, fields: unknown): string | number | null {
  let value: unknown = fields;
  for (const step of key.path) value = value !== null && typeof value === 'object' ? Reflect.get(value, step) : undefined;
  if (key.type === 'integer') return typeof value === 'number' ? value : null;
  if (typeof value !== 'string') return null;
  return key.foldCase ? foldAscii(value) : value;
}

/** The keys of a sort, checked: a TypeError names a sort the collection does not have. */
export function sortKeys(collection: Collection, order: ListOrder): Array<[name: string, key: ListKey]> {
  const sorts = sortsOf(collection);
  const names = Object.hasOwn(sorts, order.by) ? sorts[order.by] : undefined;
  if (names === undefined) throw new TypeError(`${collection} cannot be listed by ${order.by}`);
  return names.map((name) => [name, listKeysOf(collection)[name]!]);
}

/** The key a condition names, checked. */
export function conditionKey(collection: Collection, name: string): ListKey {
  const keys = listKeysOf(collection);
  const key = Object.hasOwn(keys, name) ? keys[name] : undefined;
  if (key === undefined) throw new TypeError(`${collection} keeps no list key ${name}`);
  return key;
}

/** Where a page that ends with `doc` continues from, in `order`. */
export function positionOf(collection: Collection, order: ListOrder | undefined, doc: ReadDocument): ListPosition {
  if (order === undefined) return { keys: [], seq: doc.seq };
  return { keys: sortKeys(collection, order).map(([, key]) => keyValue(key, doc.fields) ?? ''), seq: doc.seq };
}
