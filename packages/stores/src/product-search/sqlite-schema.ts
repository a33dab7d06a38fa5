// Product search's tables in the SQLite read store's file, one set per generation beside the
// documents: two FTS5 indexes (names and descriptions; names alone), the vocabulary of names with
// each word's one-letter-shorter variants (for typos), and the vocabulary of every word (for a
// last word typed). How they merge while a generation is filled in bulk is here too.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { table } from '../read-store/sqlite-schema.ts';
import type { Prepare } from '../read-store/sqlite-indexes.ts';
import { deletionVariants, MAX_PREFIX_WORDS, type QueryWord } from './planner.ts';

/** Every table of a generation's product search: what a promotion drops with the documents. */
export const SEARCH_TABLES = [
  'products_fts',
  'products_names_fts',
  'products_name_terms',
  'products_name_variants',
  'products_terms',
] as const;

/**
 * The prefix lengths FTS5 keeps an index of: a prefix this short reads one list of its own. A
 * longer one would make FTS5 gather the lists of every word it starts, whatever the LIMIT (5 ms
 * for `plastic*` at 1M events), so the store names those words itself (sqlite.ts).
 */
const INDEXED_PREFIX_LENGTHS = [2, 3];
const FTS_OPTIONS = `tokenize = 'unicode61 remove_diacritics 2', prefix = '${INDEXED_PREFIX_LENGTHS.join(' ')}'`;

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

function fillTermsFrom(db: DatabaseSync, fts: string, terms: string): void {
  db.exec(`CREATE VIRTUAL TABLE temp.index_words USING fts5vocab(main, '${fts}', 'row');
    INSERT INTO ${terms} (term, docs) SELECT term, doc FROM temp.index_words;
    DROP TABLE temp.index_words;`);
}

/** A generation's full-text indexes. */
const FTS_TABLES = ['products_fts', 'products_names_fts'] as const;
/**
 * Served: no merging in a write (mergeStep does it, between writes), and FTS5's own merge of a
 * level at sixteen segments as the backstop should the steps fall behind.
 */
const SERVED_MERGING = { automerge: 0, crisismerge: 16 };
/** Filled in bulk: nothing merged until a level holds 256 segments; `settle` merges once at the end. */
const BULK_MERGING = { automerge: 0, crisismerge: 256 };

function setMerging(db: DatabaseSync, fts: string, { automerge, crisismerge }: typeof SERVED_MERGING) {
  db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${automerge});
    INSERT INTO ${fts} (${fts}, rank) VALUES ('crisismerge', ${crisismerge});`);
}

/**
 * The most pages of merged segments one merge step writes (2026-11-29): a step took 1-1.5 ms at
 * most in a file of 20,000 products and 0.8 ms in one of 100,000 full-text rows alone. FTS5 ends
 * a step only between two words, so in the lag bench's read models of 100,000 products a step that
 * reaches a word every product holds writes its postings whole: 260-320 rows, 3.2-4.8 ms, at 4, 8,
 * 16 and 64 pages alike (2026-11-30). FTS5's own merging inside a commit took up to 12-17 ms at
 * 20,000 products, more the larger the segments (every 4^k-th commit merges k levels at once).
 */
export const MERGE_STEP_PAGES = 16;

/**
 * How a generation's full-text indexes merge their segments. FTS5 writes what each commit adds as
 * a new segment, and left to itself merges every four of a level into one inside the commit that
 * makes the fourth: most commits cost nothing, and every 4^k-th one merges k levels, the largest
 * segments among them. That was the tail of the projection lag (an idle projector's p99 4.6 ms at
 * 2,000 products, 12-17 ms at 20,000, 2026-11-29). A served generation merges nothing in its
 * writes: the read store runs mergeStep between them (read-store/sqlite.ts), bounded steps of the
 * same work, so a write never waits for more than one.
 *
 * While a generation is filled in bulk (a rebuild, a seed) `bulk` merges nothing until a level
 * holds 256 segments (FTS5 allows 2,000 in all; the third level begins past 65,000 commits);
 * `settle` then merges everything into the one segment searches read fastest. Measured
 * (2026-11-23): a seed of 1M events 158 s → 123 and 133 s (two runs; the final merge is 10 s of it);
 * a rebuild of 100k events 9.9–13.1 s → 10.4–11.4 s, final merge included (three runs each,
 * alternating, on a noisy machine).
 */
export const ftsMerging = {
  bulk(db: DatabaseSync, generation: number) {
    for (const name of FTS_TABLES) setMerging(db, table(name, generation), BULK_MERGING);
  },
  /** Whether a bulk load is filling this generation: its writes leave the vocabulary of both fields to `settle`. */
  isBulk(db: DatabaseSync, generation: number): boolean {
    return isBulkUnder((sql) => db.prepare(sql), generation);
  },
  settle(db: DatabaseSync, generation: number) {
    for (const name of FTS_TABLES) {
      const fts = table(name, generation);
      db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
      setMerging(db, fts, SERVED_MERGING);
    }
    refillAllTerms(db, generation);
  },
  /**
   * Puts back the served merging, without the costly final merge, where a bulk load that never
   * finished left its own (the steps merge later), or an older version left FTS5's.
   */
  restore(db: DatabaseSync, generation: number) {
    const wasBulk = ftsMerging.isBulk(db, generation);
    for (const name of FTS_TABLES) {
      const fts = table(name, generation);
      const { automerge, crisismerge } = mergingOf(db, fts);
      if (automerge !== SERVED_MERGING.automerge || crisismerge !== SERVED_MERGING.crisismerge) setMerging(db, fts, SERVED_MERGING);
    }
    if (wasBulk) refillAllTerms(db, generation);
  },
  /**
   * One bounded step of the merging a served generation's writes leave (MERGE_STEP_PAGES), in
   * the first index that has four segments on a level or a merge under way: whether it did any.
   */
  mergeStep(prepare: Prepare, generation: number): boolean {
    // A bulk load merges once, at its end.
    if (isBulkUnder(prepare, generation)) return false;
    const changes = prepare('SELECT total_changes() AS n');
    for (const name of FTS_TABLES) {
      const fts = table(name, generation);
      const before = (changes.get() as { n: number }).n;
      prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('merge', ${MERGE_STEP_PAGES})`).run();
      // FTS5's own test (its 'merge' command): a step that merged something changed two rows or more.
      if ((changes.get() as { n: number }).n - before >= 2) return true;
    }
    return false;
  },
};

/** FTS5's own merging, where a table's settings hold none. */
const FTS5_DEFAULT_MERGING: typeof SERVED_MERGING = { automerge: 4, crisismerge: 16 };

/** One of a full-text index's merging settings, FTS5's default where the table holds none. */
function mergingSetting(prepare: Prepare, fts: string, key: keyof typeof SERVED_MERGING): number {
  const row = prepare(`SELECT v FROM ${fts}_config WHERE k = ?`).get(key) as { v: number } | undefined;
  return Number(row?.v ?? FTS5_DEFAULT_MERGING[key]);
}

/** A full-text index's merging settings. */
function mergingOf(db: DatabaseSync, fts: string): typeof SERVED_MERGING {
  const prepare = (sql: string) => db.prepare(sql);
  return { automerge: mergingSetting(prepare, fts, 'automerge'), crisismerge: mergingSetting(prepare, fts, 'crisismerge') };
}

/** Whether a bulk load is filling the generation: its full index keeps the bulk load's crisismerge. */
const isBulkUnder = (prepare: Prepare, generation: number) =>
  mergingSetting(prepare, table('products_fts', generation), 'crisismerge') === BULK_MERGING.crisismerge;

/**
 * The vocabulary of both fields, counted from the full index at once. Counting each batch's words
 * as they were written made a seed of 300k events 45% slower (34.5 s → 50.1 s, 2026-11-24); counted
 * from the index at the end, 8% (38.5 s → 41.5 s), about a second of it the count itself.
 */
function refillAllTerms(db: DatabaseSync, generation: number): void {
  db.exec(`DELETE FROM ${table('products_terms', generation)}`);
  fillTermsFrom(db, table('products_fts', generation), table('products_terms', generation));
}

/** The SQL that makes a generation's search tables. */
export function searchSchema(generation: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table('products_fts', generation)}
      USING fts5(name, description, ${FTS_OPTIONS});
    ${NAMES_TABLE(generation)}
    ${TERMS_TABLE(generation)}
    ${VARIANTS_TABLE(generation)}
    ${ALL_TERMS_TABLE(generation)}`;
}

/**
 * What a generation written by an older version lacks: the names' own index, the vocabularies
 * and the variants. Asked before searchSchema() makes them; fills them after, from the documents
 * and the full index.
 */
export function upgradeSearch(db: DatabaseSync, generation: number): (() => void) | undefined {
  const exists = (name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table(name, generation)) !== undefined;
  const named = exists('products_names_fts');
  const termed = exists('products_name_terms');
  const varied = exists('products_name_variants');
  const allTermed = exists('products_terms');
  if (named && termed && varied && allTermed) return undefined;
  return () => {
    if (!named) {
      db.exec(`INSERT INTO ${table('products_names_fts', generation)} (rowid, name)
        SELECT seq, json_extract(body, '$.name') FROM ${table('products', generation)} WHERE deleted = 0`);
    }
    // Each full-text index knows its words and how many products hold each.
    if (!termed) fillTermsFrom(db, table('products_names_fts', generation), table('products_name_terms', generation));
    if (!allTermed) fillTermsFrom(db, table('products_fts', generation), table('products_terms', generation));
    if (!varied) {
      const { add } = variantsOf(db, generation);
      for (const { term } of db.prepare(`SELECT term FROM ${table('products_name_terms', generation)}`).all() as Array<{ term: string }>)
        add(term);
    }
  };
}
