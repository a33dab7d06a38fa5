// A list's WHERE and ORDER BY in SQL, for both SQL engines: the filters, the key conditions and
// the keyset position (list-keys.ts) over the columns each engine keeps, with its own placeholders.
import { FILTERABLE, type Collection, type ListQuery } from './port.ts';
import { conditionKey, sortKeys } from './list-keys.ts';

/** The column a list key is kept in, on both engines. */
export const keyColumn = (name: string) => `k_${name}`;

export interface ListSql {
  /** Conditions to AND together (without the engine's own test for a live document). */
  conditions: string[];
  orderBy: string;
}

/**
 * `place` adds a value to the statement's parameters and answers its placeholder; `filterColumn`
 * names an equality filter's column. A field, sort or key the collection lacks is a TypeError:
 * the handlers only ask for what the contract allows.
 */
export function listSql(
  collection: Collection,
  query: ListQuery,
  place: (value: string | number) => string,
  filterColumn: (field: string) => string,
): ListSql {
  const conditions: string[] = [];
  for (const [field, value] of Object.entries(query.filter ?? {})) {
    if (!FILTERABLE[collection].includes(field)) throw new TypeError(`${collection} cannot be filtered by ${field}`);
    conditions.push(`${filterColumn(field)} = ${place(value)}`);
  }
  const after = 'after' in query ? query.after : null;
  const names = query.order === undefined ? [] : sortKeys(collection, query.order).map(([name]) => name);
  const descending = query.order === undefined || query.order.descending;
  // The leading keys a condition holds equal, and the bound the position already passed, are left
  // out of the position's comparison and the conditions: with them, SQLite started the range at the
  // condition's bound and read every row up to the position (a page half way down a price range at
  // 1,000,000 products: 0.6 ms, against 0.02 without them).
  let fixed = 0;
  while (after && fixed < names.length && query.keys?.[names[fixed]!]?.equals === after.keys[fixed]) fixed++;
  const next = after ? names[fixed] : undefined;
  const at = after?.keys[fixed];
  const passed = (name: string, bound: 'min' | 'max', value: number) =>
    name === next && typeof at === 'number' && (bound === 'min' ? !descending && at >= value : descending && at <= value);
  for (const [name, condition] of Object.entries(query.keys ?? {})) {
    conditionKey(collection, name);
    if (condition.equals !== undefined) conditions.push(`${keyColumn(name)} = ${place(condition.equals)}`);
    if (condition.min !== undefined && !passed(name, 'min', condition.min))
      conditions.push(`${keyColumn(name)} >= ${place(condition.min)}`);
    if (condition.max !== undefined && !passed(name, 'max', condition.max))
      conditions.push(`${keyColumn(name)} <= ${place(condition.max)}`);
  }
  if (query.keys !== undefined && 'offset' in query) throw new TypeError('an offset page cannot count key conditions: page by keyset');
  const columns = names.map(keyColumn);
  const direction = descending ? 'DESC' : 'ASC';
  if ('beforeSeq' in query) {
    if (query.order !== undefined) throw new TypeError('an ordered list pages after a position, not below a seq');
    if (query.beforeSeq !== null) conditions.push(`seq < ${place(query.beforeSeq)}`);
  }
  if (after) {
    const { keys, seq } = after;
    if (keys.length !== columns.length) throw new TypeError(`a position in this order has ${columns.length} keys and a seq`);
    // A row-value comparison, which both engines answer by a range of the index on the same columns.
    const placed = [...keys.slice(fixed).map(place), place(seq)];
    conditions.push(`(${[...columns.slice(fixed), 'seq'].join(', ')}) ${direction === 'DESC' ? '<' : '>'} (${placed.join(', ')})`);
  }
  return { conditions, orderBy: [...columns, 'seq'].map((c) => `${c} ${direction}`).join(', ') };
}
