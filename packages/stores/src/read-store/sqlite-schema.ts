// The read store's tables in SQLite: one set per generation (a rebuild fills a new one and swaps it
// in), and what a store written by an older version gets when it is opened.
import type { DatabaseSync } from 'node:sqlite';
import { COLLECTIONS, FILTERABLE } from './port.ts';
import { countKeysOf } from './live-counts.ts';
import { type ListKey, listKeysOf, sortsOf } from './list-keys.ts';
import { keyColumn } from './list-sql.ts';
import type { SqliteReadModelIndex } from './sqlite-indexes.ts';

export const column = (field: string) => `f_${field}`;
/** Indexed expression for userByEmail; lower() folds ASCII letters only. */
export const EMAIL_KEY = "lower(trim(json_extract(body, '$.email')))";
export const table = (collection: string, generation: number) => `${collection}_g${generation}`;

/** A document's row as it is read. */
export interface Row {
  id: string;
  version: number;
  seq: number;
  deleted: number;
  body: string;
}

/** What a document is read with. The filter columns serve WHERE only: reading them as well doubled the time of a search's row fetch. */
export const ROW = 'id, version, seq, deleted, body';

/** Every table schema() makes for a generation: what a promotion drops of the one it replaces. */
export const GENERATION_TABLES = [...COLLECTIONS, 'checkpoints', 'counts'] as const;

/** Every table of a generation: the store's own and its indexes'. */
export const generationTables = (indexes: readonly SqliteReadModelIndex[]) => [
  ...GENERATION_TABLES,
  ...indexes.flatMap((index) => index.tables),
];

export function schema(generation: number, indexes: readonly SqliteReadModelIndex[]): string {
  const tables = COLLECTIONS.map((collection) => {
    const name = table(collection, generation);
    const filters = FILTERABLE[collection];
    const generated = filters.map((f) => `, ${column(f)} TEXT GENERATED ALWAYS AS (json_extract(body, '$.${f}')) VIRTUAL`).join('');
    const keys = Object.entries(listKeysOf(collection))
      .map(([key, declared]) => `, ${keyColumnDefinition(key, declared)}`)
      .join('');
    const byFilter = filters.map((f) => `CREATE INDEX IF NOT EXISTS ${name}_${f} ON ${name} (${column(f)}, deleted, seq);`).join('\n');
    // An index per sort, alone and after each filter, so that every order pages by a range of one.
    const bySort = Object.entries(sortsOf(collection)).flatMap(([sort, names]) => {
      const sorted = [...names.map(keyColumn), 'seq'].join(', ');
      return [
        `CREATE INDEX IF NOT EXISTS ${name}_by_${sort} ON ${name} (deleted, ${sorted});`,
        ...filters.map((f) => `CREATE INDEX IF NOT EXISTS ${name}_${f}_by_${sort} ON ${name} (${column(f)}, deleted, ${sorted});`),
      ];
    });
    return `
      CREATE TABLE IF NOT EXISTS ${name} (
        id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,
        deleted INTEGER NOT NULL, body TEXT NOT NULL${generated}${keys});
      CREATE INDEX IF NOT EXISTS ${name}_live ON ${name} (deleted, seq);
      ${byFilter}
      ${bySort.join('\n')}${collection === 'users' ? `\n      CREATE INDEX IF NOT EXISTS ${name}_email ON ${name} (${EMAIL_KEY});` : ''}`;
  });
  return `${tables.join('\n')}
    ${indexes.map((index) => index.schema(generation)).join('\n')}
    CREATE TABLE IF NOT EXISTS ${table('checkpoints', generation)} (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    ${COUNTS_TABLE(generation)}`;
}

/** A list key's column (list-keys.ts): derived from the body, as the filters' are. */
function keyColumnDefinition(key: string, declared: ListKey): string {
  const value = `json_extract(body, '$.${declared.path.join('.')}')`;
  const expression = declared.foldCase ? `lower(${value})` : value;
  return `${keyColumn(key)} ${declared.type === 'integer' ? 'INTEGER' : 'TEXT'} GENERATED ALWAYS AS (${expression}) VIRTUAL`;
}

/** Adds the list keys' columns a table made by an older version lacks (virtual: nothing is rewritten). */
function addKeyColumns(db: DatabaseSync, generation: number): void {
  for (const collection of COLLECTIONS) {
    const name = table(collection, generation);
    const present = new Set((db.prepare(`PRAGMA table_xinfo(${name})`).all() as Array<{ name: string }>).map((c) => c.name));
    if (present.size === 0) continue;
    for (const [key, declared] of Object.entries(listKeysOf(collection))) {
      if (!present.has(keyColumn(key))) db.exec(`ALTER TABLE ${name} ADD COLUMN ${keyColumnDefinition(key, declared)}`);
    }
  }
}

/** Live documents per collection and filter values (live-counts.ts), kept with the documents. */
const COUNTS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('counts', generation)} (
      collection TEXT NOT NULL, fields TEXT NOT NULL, value TEXT NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (collection, fields, value)) WITHOUT ROWID;`;

/**
 * Fills the counts of a generation written before they were kept: once, when such a store is
 * opened, from the documents themselves.
 */
function countExisting(db: DatabaseSync, generation: number): void {
  const add = db.prepare(`INSERT INTO ${table('counts', generation)} (collection, fields, value, n) VALUES (?, ?, ?, ?)
    ON CONFLICT (collection, fields, value) DO UPDATE SET n = n + excluded.n`);
  for (const collection of COLLECTIONS) {
    const columns = FILTERABLE[collection].map((f) => `${column(f)} AS ${f}`);
    const rows = db
      .prepare(
        `SELECT ${['COUNT(*) AS n', ...columns].join(', ')} FROM ${table(collection, generation)} WHERE deleted = 0${
          columns.length > 0 ? ` GROUP BY ${FILTERABLE[collection].map(column).join(', ')}` : ''
        }`,
      )
      .all() as Array<Record<string, string | number | null>>;
    for (const row of rows) {
      if (Number(row.n) === 0) continue;
      for (const [fields, value] of countKeysOf(collection, row as Record<string, string | null>))
        add.run(collection, fields, value, Number(row.n));
    }
  }
}

/**
 * Records the indexes the file is opened with, and refuses a store opened without one it keeps:
 * written without it, the index would miss those writes, and a search would not find what a read
 * does.
 */
function keepsItsIndexes(db: DatabaseSync, indexes: readonly SqliteReadModelIndex[]): void {
  const given = new Set(indexes.map((index) => index.name));
  const kept = (db.prepare('SELECT name FROM read_indexes').all() as Array<{ name: string }>).map((row) => row.name);
  const missing = kept.filter((name) => !given.has(name));
  if (missing.length > 0) {
    throw new Error(`this read store keeps the index ${missing.join(', ')}: open it with it (read-models/open.ts opens every index)`);
  }
  const record = db.prepare('INSERT OR IGNORE INTO read_indexes (name) VALUES (?)');
  for (const name of given) record.run(name);
}

/**
 * Creates what a new file lacks and gives the generation being served what an older version of
 * this store lacked (the counts; what each index says it lacks), in one transaction.
 * Returns that generation.
 */
export function openSchema(db: DatabaseSync, indexes: readonly SqliteReadModelIndex[]): number {
  db.exec(`
    CREATE TABLE IF NOT EXISTS read_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT OR IGNORE INTO read_meta (key, value) VALUES ('active_generation', 1), ('last_generation', 1);
    CREATE TABLE IF NOT EXISTS follower_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS read_indexes (name TEXT PRIMARY KEY);
  `);
  keepsItsIndexes(db, indexes);
  const atOpen = Number((db.prepare("SELECT value FROM read_meta WHERE key = 'active_generation'").get() as { value: number }).value);
  db.exec('BEGIN IMMEDIATE');
  try {
    const exists = (name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table(name, atOpen)) !== undefined;
    const counted = exists('counts');
    const upgrades = indexes.map((index) => index.upgrade(db, atOpen));
    addKeyColumns(db, atOpen);
    db.exec(schema(atOpen, indexes));
    if (!counted) countExisting(db, atOpen);
    for (const upgrade of upgrades) upgrade?.();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return atOpen;
}
