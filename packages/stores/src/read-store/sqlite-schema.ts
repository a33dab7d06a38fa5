// The read store's tables in SQLite: one set per generation (a rebuild fills a new one and swaps it
// in), and what a store written by an older version gets when it is opened.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { type Collection, COLLECTIONS, FILTERABLE, type ReadDocument } from './port.ts';
import { countKeysOf } from './live-counts.ts';
import { deletionVariants, MAX_PREFIX_WORDS, type QueryWord } from './search-terms.ts';

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

/** A row as a document of its collection: the body is the fields the projector wrote there. */
export function toDocument<C extends Collection = Collection>(row: Row): ReadDocument<C> {
  return { id: row.id, version: Number(row.version), seq: Number(row.seq), deleted: row.deleted === 1, fields: JSON.parse(row.body) };
}

/** Every table schema() makes for a generation: what a promotion drops of the one it replaces. */
export const GENERATION_TABLES = [
  ...COLLECTIONS,
  'products_fts',
  'products_names_fts',
  'products_name_terms',
  'products_name_variants',
  'products_terms',
  'checkpoints',
  'counts',
] as const;

/**
 * The prefix lengths FTS5 keeps an index of: a prefix this short reads one list of its own. A
 * longer one would make FTS5 gather the lists of every word it starts, whatever the LIMIT (5 ms
 * for `plastic*` at 1M events), so the store names those words itself (sqlite-search.ts).
 */
const INDEXED_PREFIX_LENGTHS = [2, 3];
const FTS_OPTIONS = `tokenize = 'unicode61 remove_diacritics 2', prefix = '${INDEXED_PREFIX_LENGTHS.join(' ')}'`;

export function schema(generation: number): string {
  const tables = COLLECTIONS.map((collection) => {
    const name = table(collection, generation);
    const filters = FILTERABLE[collection];
    const generated = filters.map((f) => `, ${column(f)} TEXT GENERATED ALWAYS AS (json_extract(body, '$.${f}')) VIRTUAL`).join('');
    const indexes = filters.map((f) => `CREATE INDEX IF NOT EXISTS ${name}_${f} ON ${name} (${column(f)}, deleted, seq);`).join('\n');
    return `
      CREATE TABLE IF NOT EXISTS ${name} (
        id TEXT PRIMARY KEY, version INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE,
        deleted INTEGER NOT NULL, body TEXT NOT NULL${generated});
      CREATE INDEX IF NOT EXISTS ${name}_live ON ${name} (deleted, seq);
      ${indexes}${collection === 'users' ? `\n      CREATE INDEX IF NOT EXISTS ${name}_email ON ${name} (${EMAIL_KEY});` : ''}`;
  });
  return `${tables.join('\n')}
    CREATE VIRTUAL TABLE IF NOT EXISTS ${table('products_fts', generation)}
      USING fts5(name, description, ${FTS_OPTIONS});
    ${NAMES_TABLE(generation)}
    ${TERMS_TABLE(generation)}
    ${VARIANTS_TABLE(generation)}
    ${ALL_TERMS_TABLE(generation)}
    CREATE TABLE IF NOT EXISTS ${table('checkpoints', generation)} (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    ${COUNTS_TABLE(generation)}`;
}

/**
 * Product names alone, so that "the newest products whose names match" reads the names' own
 * index instead of filtering every match of the full index by column.
 */
const NAMES_TABLE = (generation: number) => `CREATE VIRTUAL TABLE IF NOT EXISTS ${table('products_names_fts', generation)}
      USING fts5(name, ${FTS_OPTIONS});`;

/** The words of live product names and how many names hold each: what query words are completed and corrected from. */
const TERMS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('products_name_terms', generation)} (
      term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;`;

/**
 * Every word of live products' names and descriptions and how many products hold each: what a
 * last word typed stands for (withPrefixWords below), instead of FTS5 gathering every
 * word it starts.
 */
const ALL_TERMS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('products_terms', generation)} (
      term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;`;

/** The longest prefix FTS5 reads a list of its own for (INDEXED_PREFIX_LENGTHS). */
const LONGEST_INDEXED_PREFIX = Math.max(...INDEXED_PREFIX_LENGTHS);

/** Whether the store names the words a prefix starts (wordsStartingWith), past what FTS5 gathers itself from its prefix index. */
export const namesItsPrefixWords = (prefix: string) => [...prefix].length > LONGEST_INDEXED_PREFIX;

/** The commonest words of live products that `prefix` starts, at most MAX_PREFIX_WORDS. */
export function wordsStartingWith(prepare: (sql: string) => StatementSync, generation: number, prefix: string): string[] {
  const rows = prepare(
    `SELECT term FROM ${table('products_terms', generation)} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ${MAX_PREFIX_WORDS}`,
  ).all(prefix, `${prefix}\u{10FFFF}`) as Array<{ term: string }>;
  return rows.map((r) => r.term);
}

/**
 * A query word as the SQLite store runs it: a last word longer than the prefix index stands for
 * the words it starts (wordsStartingWith, or the caller's memo of it); any other as it is.
 */
export function withPrefixWords(word: QueryWord, startingWith: (prefix: string) => string[]): QueryWord {
  if (!word.prefix || !namesItsPrefixWords(word.term)) return word;
  return { ...word, expansions: startingWith(word.term) };
}

/** Each vocabulary word under itself and under each string one letter shorter: how typos are found (deletionVariants). */
const VARIANTS_TABLE = (generation: number) => `CREATE TABLE IF NOT EXISTS ${table('products_name_variants', generation)} (
      variant TEXT NOT NULL, term TEXT NOT NULL, PRIMARY KEY (variant, term)) WITHOUT ROWID;`;

/** Files the variants of a word new to the vocabulary, or removes those of a word no name holds any more. */
export function variantsOf(db: DatabaseSync, generation: number) {
  const variants = table('products_name_variants', generation);
  // Prepared on first use, as the writer's other statements: a generation dropped meanwhile fails its write, not the writer's making.
  let insert: StatementSync | undefined;
  let remove: StatementSync | undefined;
  return {
    add: (term: string) => {
      insert ??= db.prepare(`INSERT OR IGNORE INTO ${variants} (variant, term) VALUES (?, ?)`);
      for (const variant of deletionVariants(term)) insert.run(variant, term);
    },
    remove: (term: string) => {
      remove ??= db.prepare(`DELETE FROM ${variants} WHERE variant = ? AND term = ?`);
      for (const variant of deletionVariants(term)) remove.run(variant, term);
    },
  };
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
 * Creates what a new file lacks and gives the generation being served what an older version of
 * this store lacked (a newer index, the counts, the names' vocabulary), in one transaction.
 * Returns that generation.
 */
export function openSchema(db: DatabaseSync): number {
  db.exec(`
    CREATE TABLE IF NOT EXISTS read_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT OR IGNORE INTO read_meta (key, value) VALUES ('active_generation', 1), ('last_generation', 1);
    CREATE TABLE IF NOT EXISTS follower_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
  `);
  const atOpen = Number((db.prepare("SELECT value FROM read_meta WHERE key = 'active_generation'").get() as { value: number }).value);
  db.exec('BEGIN IMMEDIATE');
  try {
    const exists = (name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table(name, atOpen)) !== undefined;
    const counted = exists('counts');
    const named = exists('products_names_fts');
    const termed = exists('products_name_terms');
    const varied = exists('products_name_variants');
    const allTermed = exists('products_terms');
    db.exec(schema(atOpen));
    if (!counted) countExisting(db, atOpen);
    if (!named) {
      db.exec(`INSERT INTO ${table('products_names_fts', atOpen)} (rowid, name)
        SELECT seq, json_extract(body, '$.name') FROM ${table('products', atOpen)} WHERE deleted = 0`);
    }
    // Each full-text index knows its words and how many products hold each.
    if (!termed) fillTermsFrom(db, table('products_names_fts', atOpen), table('products_name_terms', atOpen));
    if (!allTermed) fillTermsFrom(db, table('products_fts', atOpen), table('products_terms', atOpen));
    if (!varied) {
      const { add } = variantsOf(db, atOpen);
      for (const { term } of db.prepare(`SELECT term FROM ${table('products_name_terms', atOpen)}`).all() as Array<{ term: string }>)
        add(term);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return atOpen;
}

function fillTermsFrom(db: DatabaseSync, fts: string, terms: string): void {
  db.exec(`CREATE VIRTUAL TABLE temp.index_words USING fts5vocab(main, '${fts}', 'row');
    INSERT INTO ${terms} (term, docs) SELECT term, doc FROM temp.index_words;
    DROP TABLE temp.index_words;`);
}

/** A generation's full-text indexes. */
const FTS_TABLES = ['products_fts', 'products_names_fts'] as const;
/** FTS5's own: merge four segments of a level into one, and at sixteen whatever else is going on. */
const FTS5_DEFAULT_MERGING = { automerge: 4, crisismerge: 16 };
const BULK_MERGING = { automerge: 0, crisismerge: 256 };

function setMerging(db: DatabaseSync, fts: string, { automerge, crisismerge }: typeof FTS5_DEFAULT_MERGING) {
  db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${automerge});
    INSERT INTO ${fts} (${fts}, rank) VALUES ('crisismerge', ${crisismerge});`);
}

/**
 * How a generation's full-text indexes merge their segments. FTS5 writes what each commit adds as
 * a new segment and by default merges every four of a level into one, so each row is rewritten
 * once per level; half of a read-model batch was its COMMIT, where that happens. While a
 * generation is filled in bulk (a rebuild, a seed) `bulk` merges nothing until a level holds 256
 * segments (FTS5 allows 2,000 in all; the third level begins past 65,000 commits); `settle` then
 * merges everything into the one segment searches read fastest and restores the defaults.
 * Measured (2026-11-23): a seed of 1M events 158 s → 123 and 133 s (two runs; the final merge is
 * 10 s of it); a rebuild of 100k events 9.9–13.1 s → 10.4–11.4 s, final merge included (three
 * runs each, alternating, on a noisy machine).
 */
export const ftsMerging = {
  bulk(db: DatabaseSync, generation: number) {
    for (const name of FTS_TABLES) setMerging(db, table(name, generation), BULK_MERGING);
  },
  /** Whether a bulk load is filling this generation: its writes leave the vocabulary of both fields to `settle`. */
  isBulk(db: DatabaseSync, generation: number): boolean {
    return isBulkMerging(db, table('products_fts', generation));
  },
  settle(db: DatabaseSync, generation: number) {
    for (const name of FTS_TABLES) {
      const fts = table(name, generation);
      db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
      setMerging(db, fts, FTS5_DEFAULT_MERGING);
    }
    refillAllTerms(db, generation);
  },
  /** Puts back the defaults a bulk load that never finished left behind, without the costly final merge: later writes merge. */
  restore(db: DatabaseSync, generation: number) {
    if (!FTS_TABLES.some((name) => isBulkMerging(db, table(name, generation)))) return;
    for (const name of FTS_TABLES) setMerging(db, table(name, generation), FTS5_DEFAULT_MERGING);
    refillAllTerms(db, generation);
  },
};

function isBulkMerging(db: DatabaseSync, fts: string): boolean {
  const automerge = db.prepare(`SELECT v FROM ${fts}_config WHERE k = 'automerge'`).get() as { v: number } | undefined;
  return automerge?.v === BULK_MERGING.automerge;
}

/**
 * The vocabulary of both fields, counted from the full index at once. Counting each batch's words
 * as they were written made a seed of 300k events 45% slower (34.5 s → 50.1 s, 2026-11-24); counted
 * from the index at the end, 8% (38.5 s → 41.5 s), about a second of it the count itself.
 */
function refillAllTerms(db: DatabaseSync, generation: number): void {
  db.exec(`DELETE FROM ${table('products_terms', generation)}`);
  fillTermsFrom(db, table('products_fts', generation), table('products_terms', generation));
}
