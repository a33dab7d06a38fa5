// Exact totals for offset pages without counting rows: each store keeps, per collection, how
// many live documents there are in all and for every combination of the filterable fields'
// values, changed with the documents in the same write. A total is then one lookup, whatever
// the size of the collection.
import { FILTERABLE, type Collection } from './port.ts';

/** A count's key: the filter fields, sorted and joined ('' for all), and their values in that order. */
export type CountKey = readonly [fields: string, values: string];

const ALL: CountKey = ['', ''];

/** The key a list's filter reads its total from. */
export function countKeyOf(filter: Record<string, string>): CountKey {
  const fields = Object.keys(filter).sort();
  return fields.length === 0 ? ALL : [fields.join(','), JSON.stringify(fields.map((f) => filter[f]))];
}

/** Every key a live document counts under: all, and each combination of its filterable fields that have a value. */
export function countKeysOf(collection: Collection, fields: object): CountKey[] {
  // A document's fields by name: any of the collections' states, or a row of their columns.
  const value = (field: string): unknown => Reflect.get(fields, field);
  const present = FILTERABLE[collection].filter((f) => value(f) !== undefined && value(f) !== null).sort();
  const keys: CountKey[] = [ALL];
  for (let mask = 1; mask < 1 << present.length; mask++) {
    const chosen = present.filter((_, i) => mask & (1 << i));
    keys.push([chosen.join(','), JSON.stringify(chosen.map((f) => String(value(f))))]);
  }
  return keys;
}

/** How a write moves the counts: -1 under the keys the document leaves, +1 under those it joins. */
export function countChanges(before: CountKey[], after: CountKey[]): Array<{ key: CountKey; delta: 1 | -1 }> {
  const id = (key: CountKey) => `${key[0]}\u0000${key[1]}`;
  const was = new Set(before.map(id));
  const is = new Set(after.map(id));
  return [
    ...before.filter((key) => !is.has(id(key))).map((key) => ({ key, delta: -1 as const })),
    ...after.filter((key) => !was.has(id(key))).map((key) => ({ key, delta: 1 as const })),
  ];
}
