// The read store's tables in PostgreSQL: what every generation shares (made by the versioned
// migration), and one set of tables per generation (a rebuild fills a new one and swaps it in).
import { type Collection, COLLECTIONS, FILTERABLE } from './port.ts';
import type { PostgresReadModelIndex } from './postgres-indexes.ts';
import { type ListKey, listKeysOf, sortsOf } from './list-keys.ts';
import { keyColumn } from './list-sql.ts';

/** The read store's migration steps, in order; a new step is added at the end, never an old one changed. */
export const READ_STORE_STEPS: readonly string[] = [
  `CREATE TABLE read_meta (key text PRIMARY KEY, value integer NOT NULL);
   INSERT INTO read_meta (key, value) VALUES ('active_generation', 1), ('last_generation', 1);
   CREATE TABLE follower_checkpoints (name text PRIMARY KEY, position bigint NOT NULL);
   CREATE TABLE read_indexes (name text PRIMARY KEY);`,
];

export const table = (collection: string, generation: number) => `read_${collection}_g${generation}`;
/** The column a filterable field (or the email) is kept in, beside the body, for WHERE. */
export const column = (field: string) => `f_${field.toLowerCase()}`;

/** Fields kept in columns of their own, per collection: the filterable ones, and the users' email (userByEmail). */
export const COLUMN_FIELDS: Readonly<Record<Collection, readonly string[]>> = {
  users: [...FILTERABLE.users, 'email'],
  products: FILTERABLE.products,
  orders: FILTERABLE.orders,
};

/** Indexed expression for userByEmail. */
export const EMAIL_KEY = `lower(trim(${column('email')}))`;

/** A document's row as it is read. */
export interface Row {
  id: string;
  version: number;
  seq: string;
  deleted: boolean;
  body: string;
}

export const ROW = 'id, version, seq, deleted, body';

/** Every table of a generation: the documents', the checkpoints', the counts', and its indexes'. */
export const generationTables = (indexes: readonly PostgresReadModelIndex[]) => [
  ...COLLECTIONS,
  'checkpoints',
  'counts',
  ...indexes.flatMap((index) => index.tables),
];

/** A list key's column (list-keys.ts), derived from the body; text compared byte by byte, as SQLite and MongoDB do. */
function keyColumnDefinition(key: string, declared: ListKey): string {
  const value = `(body::jsonb #>> '{${declared.path.join(',')}}')`;
  if (declared.type === 'integer') return `${keyColumn(key)} bigint GENERATED ALWAYS AS (${value}::bigint) STORED`;
  const text = declared.foldCase ? `translate(${value}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')` : value;
  return `${keyColumn(key)} text COLLATE "C" GENERATED ALWAYS AS (${text}) STORED`;
}

/** The SQL that makes generation `g`'s tables, where they are not there yet. */
export function generationSchema(g: number, indexes: readonly PostgresReadModelIndex[]): string {
  const documents = COLLECTIONS.map((collection) => {
    const name = table(collection, g);
    const fields = COLUMN_FIELDS[collection];
    const extra = [
      ...fields.map((f) => `, ${column(f)} text`),
      ...indexes.filter((index) => index.collection === collection).flatMap((index) => index.columns.map((c) => `, ${c.name} ${c.type}`)),
    ].join('');
    const byFilter = FILTERABLE[collection]
      .map((f) => `CREATE INDEX IF NOT EXISTS ${name}_${column(f)} ON ${name} (${column(f)}, seq) WHERE NOT deleted;`)
      .join('\n');
    // Added to a table an older version made, where it lacks them (stored: PostgreSQL rewrites it once).
    const keys = Object.entries(listKeysOf(collection))
      .map(([key, declared]) => `ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS ${keyColumnDefinition(key, declared)};`)
      .join('\n');
    // An index per sort, alone and after each filter, so that every order pages by a range of one.
    const bySort = Object.entries(sortsOf(collection)).flatMap(([sort, names]) => {
      const sorted = [...names.map(keyColumn), 'seq'].join(', ');
      return [
        `CREATE INDEX IF NOT EXISTS ${name}_by_${sort} ON ${name} (${sorted}) WHERE NOT deleted;`,
        ...FILTERABLE[collection].map(
          (f) => `CREATE INDEX IF NOT EXISTS ${name}_${column(f)}_by_${sort} ON ${name} (${column(f)}, ${sorted}) WHERE NOT deleted;`,
        ),
      ];
    });
    return `
      CREATE TABLE IF NOT EXISTS ${name} (
        id text PRIMARY KEY, version integer NOT NULL, seq bigint NOT NULL UNIQUE, deleted boolean NOT NULL, body text NOT NULL${extra});
      ${keys}
      CREATE INDEX IF NOT EXISTS ${name}_live ON ${name} (seq) WHERE NOT deleted;
      ${byFilter}
      ${bySort.join('\n')}${collection === 'users' ? `\n      CREATE INDEX IF NOT EXISTS ${name}_email ON ${name} (${EMAIL_KEY}) WHERE NOT deleted;` : ''}`;
  });
  return `${documents.join('\n')}
    ${indexes.map((index) => index.schema(g)).join('\n')}
    CREATE TABLE IF NOT EXISTS ${table('checkpoints', g)} (name text PRIMARY KEY, position bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS ${table('counts', g)} (
      collection text NOT NULL, fields text NOT NULL, value text NOT NULL, n bigint NOT NULL,
      PRIMARY KEY (collection, fields, value));`;
}
