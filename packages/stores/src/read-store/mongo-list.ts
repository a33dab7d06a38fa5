// A list's conditions and sort on MongoDB: the key conditions and the keyset position (list-keys.ts)
// over the `keys` the store writes on each document, as list-sql.ts says them in SQL.
import type { Document, Sort } from 'mongodb';
import type { Collection, ListQuery } from './port.ts';
import { conditionKey, sortKeys } from './list-keys.ts';

export function mongoListOf(collection: Collection, query: ListQuery): { conditions: Document[]; sort: Sort } {
  const conditions: Document[] = [];
  for (const [name, condition] of Object.entries(query.keys ?? {})) {
    conditionKey(collection, name);
    const field = `keys.${name}`;
    // Values as their own types, never objects: they come validated, this keeps operators out regardless.
    if (condition.equals !== undefined) conditions.push({ [field]: { $eq: condition.equals } });
    if (condition.min !== undefined) conditions.push({ [field]: { $gte: Number(condition.min) } });
    if (condition.max !== undefined) conditions.push({ [field]: { $lte: Number(condition.max) } });
  }
  if (query.keys !== undefined && 'offset' in query) throw new TypeError('an offset page cannot count key conditions: page by keyset');
  const fields = query.order === undefined ? [] : sortKeys(collection, query.order).map(([name]) => `keys.${name}`);
  const direction = query.order === undefined || query.order.descending ? -1 : 1;
  if ('beforeSeq' in query) {
    if (query.order !== undefined) throw new TypeError('an ordered list pages after a position, not below a seq');
    if (query.beforeSeq !== null) conditions.push({ seq: { $lt: query.beforeSeq } });
  }
  if ('after' in query && query.after !== null) {
    const { keys, seq } = query.after;
    if (keys.length !== fields.length) throw new TypeError(`a position in this order has ${fields.length} keys and a seq`);
    // (k1, k2, seq) beyond the position, spelled out: k1 beyond; or k1 equal and k2 beyond; …
    const beyond = direction === 1 ? '$gt' : '$lt';
    const values = [...keys, seq];
    const names = [...fields, 'seq'];
    conditions.push({
      $or: names.map((name, i) => ({
        ...Object.fromEntries(names.slice(0, i).map((before, j) => [before, { $eq: values[j] }])),
        [name]: { [beyond]: values[i] },
      })),
    });
  }
  return { conditions, sort: Object.fromEntries([...fields, 'seq'].map((name) => [name, direction])) as Sort };
}
