// Product search on the SQLite read store: the query planned with the generation's vocabulary,
// a bounded number of candidates read from the full-text indexes with the text ranking reads,
// and the documents of the best of them (docs/api.md#search). Reads the generation the store
// serves, whose indexes sqlite-index.ts keeps.
import type { SqliteReadStore } from '../read-store/sqlite.ts';
import type { Prepare } from '../read-store/sqlite-indexes.ts';
import { ROW, table } from '../read-store/sqlite-schema.ts';
import { type DocumentColumns, documentOfColumns } from '../read-store/documents.ts';
import type { ProductSearch, SearchHit, SearchResult } from './port.ts';
import {
  byRelevance,
  ftsQuery,
  holdsEvery,
  type MatchText,
  planQuery,
  type QueryWord,
  SEARCH_CANDIDATES,
  SEARCH_POSTINGS_BUDGET,
  SEARCH_SCAN_CAP,
  splitByBudget,
  searchTerms,
} from './planner.ts';
import { LIMIT_PLACEHOLDER } from '../sqlite-file.ts';
import { withPrefixWords } from './sqlite-schema.ts';
import { postingsOf, sqliteVocabulary } from './sqlite-vocabulary.ts';

/**
 * A row of a full-text index read as an array (the store's prepareColumns: node:sqlite builds an
 * object row property by property, and the 500 rows a search may read cost 0.77 ms as objects
 * against 0.29 as arrays, 1,000,000 events): a product's seq, then the text of the columns asked for.
 */
type IndexRow = [rowid: number, ...text: string[]];
/** A row of the full index with the text it was indexed with. */
type TextRow = [rowid: number, name: string, description: string];
const matchText = ([rowid, name, description]: TextRow): MatchText => ({ seq: Number(rowid), fields: { name, description } });

const placeholders = (count: number) => Array(count).fill('?').join(', ');

/** What bounds a search's work however many products match (docs/api.md#search); tests make them small. */
export interface SearchBounds {
  /** SEARCH_POSTINGS_BUDGET: the most list entries the engine is given to intersect. */
  postings: number;
  /** SEARCH_SCAN_CAP: the most rows read past that to look for the other words. */
  scanned: number;
}
const SEARCH_BOUNDS: SearchBounds = { postings: SEARCH_POSTINGS_BUDGET, scanned: SEARCH_SCAN_CAP };

/** A full-text index of generation `g`, and the columns it holds text in. */
const fullIndex = (g: number) => ({ table: table('products_fts', g), text: ['name', 'description'] });
const namesIndex = (g: number) => ({ table: table('products_names_fts', g), text: ['name'] });
type FullTextIndex = ReturnType<typeof fullIndex>;
/**
 * Where FTS5 keeps a column's text: its content table `<index>_content`, one row per rowid (`id`),
 * the columns as `c0`, `c1`, … in the order the index declares them (its text columns, here).
 */
const contentColumn = (index: FullTextIndex, column: string) => `c${index.text.indexOf(column)}`;

/** Product search on the products of the SQLite read store `store` (opened with sqliteProductIndex). */
export function sqliteProductSearch(store: SqliteReadStore, bounds: SearchBounds = SEARCH_BOUNDS): ProductSearch {
  return {
    async search(text, limit) {
      if (searchTerms(text).length === 0) return { hits: [], complete: true };
      return store.readActive((prepare, generation, prepareColumns) =>
        searchProducts({ prepare, prepareColumns }, generation, text, limit, bounds),
      );
    },
  };
}

/** How a search prepares its statements: rows as objects (the vocabulary's), or as arrays (its rows of text and documents). */
interface Statements {
  prepare: Prepare;
  prepareColumns: Prepare;
}

/** The `limit` products of generation `g` that best match `text`, most relevant first. */
async function searchProducts(statements: Statements, g: number, text: string, limit: number, bounds: SearchBounds): Promise<SearchResult> {
  const { prepare, prepareColumns } = statements;
  const vocabulary = sqliteVocabulary(prepare, g, searchTerms(text));
  const planned = await planQuery(text, vocabulary);
  if (planned.some((word) => word.standsForNothing)) return { hits: [], complete: true };
  const query = planned.map((word) => withPrefixWords(word, vocabulary.prefixWords));
  // A word alone is read only as far as its newest matches: only two or more can cost whole lists.
  const postings = query.length > 1 ? postingsOf(prepare, g, query) : undefined;
  const fts = fullIndex(g);
  // Newest first is the index's own order, so each stops after SEARCH_CANDIDATES rows
  // however many products match; ranking all of them was what made common words slow.
  // The full index keeps each product's name and description, all that ranking reads, so
  // only the documents returned are read and parsed: reading and parsing every candidate's
  // was half of a search that matched many.
  const full = newestMatches(
    prepareColumns,
    fts,
    ['name', 'description'],
    query,
    postings?.map((p) => p.all),
    bounds,
  );
  let complete = full.complete;
  const matches = (full.rows as TextRow[]).map(matchText);
  // Names are indexed in the full index too, so a query it matches fewer times than that
  // has no name matches beyond these. Skipping the second index halves a query that matches
  // little: a query that matches nothing costs an intersection of its words' lists to the end.
  if (matches.length === SEARCH_CANDIDATES) {
    const read = new Set(matches.map((m) => m.seq));
    const names = newestMatches(
      prepareColumns,
      namesIndex(g),
      [],
      query,
      postings?.map((p) => p.names),
      bounds,
    );
    complete &&= names.complete;
    const more = names.rows.map(([rowid]) => Number(rowid)).filter((seq) => !read.has(seq));
    if (more.length > 0) {
      const texts = prepareColumns(
        `SELECT id, ${['name', 'description'].map((column) => contentColumn(fts, column)).join(', ')}
           FROM ${fts.table}_content WHERE id IN (${placeholders(more.length)})`,
      ).all(...more);
      matches.push(...(texts as unknown as TextRow[]).map(matchText));
    }
  }
  return { hits: documentsOf(prepareColumns, g, byRelevance(matches, query), limit), complete };
}

/**
 * The newest SEARCH_CANDIDATES rows of `index` that hold every word of `query`, with `columns`.
 * A query of words whose lists (`postings`) add up to more than the budget is not intersected
 * whole: the engine intersects its rarest words within the budget, and the others are looked
 * for in the text of the rows those match, the newest `bounds.scanned` at most. A product that
 * holds every word but is older than those is then not found (docs/api.md#search): `complete`
 * says whether that can have happened, false when the scan stopped at its cap with fewer rows
 * than it looks for.
 */
function newestMatches(
  prepareColumns: Prepare,
  index: FullTextIndex,
  columns: string[],
  query: QueryWord[],
  postings: number[] | undefined,
  bounds: SearchBounds,
): { rows: IndexRow[]; complete: boolean } {
  const { intersected, checked } = postings ? splitByBudget(query, postings, bounds.postings) : { intersected: query, checked: [] };
  const from = `FROM ${index.table} WHERE ${index.table} MATCH ? ORDER BY rowid DESC`;
  if (checked.length === 0) {
    const newest = `SELECT rowid ${from} LIMIT ${SEARCH_CANDIDATES}`;
    const statement = prepareColumns(columns.length === 0 ? newest : withText(index, columns, newest));
    return { rows: statement.all(ftsQuery(query)) as unknown as IndexRow[], complete: true };
  }
  const holdsTheRest = holdsEvery(checked);
  const match = ftsQuery(intersected);
  const rows: IndexRow[] = [];
  /** Keeps a row that holds the other words; true once there are enough. */
  const kept = (row: IndexRow) => {
    if (holdsTheRest(row[1]!, row[2])) rows.push(row);
    return rows.length === SEARCH_CANDIDATES;
  };
  if (intersected.length > 1) {
    // Row by row, until enough: reading an intersection again from its start would spend the budget twice.
    let read = 0;
    const found = prepareColumns(`SELECT ${['rowid', ...index.text].join(', ')} ${from}`).iterate(match);
    for (const row of found as IterableIterator<IndexRow>) {
      if (kept(row)) return { rows, complete: true };
      if (++read === bounds.scanned) return { rows, complete: false };
    }
    return { rows, complete: true };
  }
  // A word alone, in two statements, each reading its rows with their text at once (a row at a
  // time cost 40% more): the first is enough where the other words are common among its rows,
  // and the second starts over, which costs a word alone little.
  const read = prepareColumns(
    `${withText(index, index.text, `SELECT rowid ${from} LIMIT ${LIMIT_PLACEHOLDER} OFFSET ?`)} ORDER BY f.rowid DESC`,
  );
  for (let offset = 0, size = Math.min(FIRST_READ, bounds.scanned); size > 0; offset += size, size = bounds.scanned - offset) {
    const batch = read.all(match, size, offset) as unknown as IndexRow[];
    for (const row of batch) if (kept(row)) return { rows, complete: true };
    if (batch.length < size) return { rows, complete: true };
  }
  return { rows, complete: false };
}

/** The rows of a word alone that a search over the budget reads first (bounds.scanned in all, at most). */
const FIRST_READ = 100;

/**
 * `found` (a SELECT of an index's rowids) with the text of `columns`, from the index's own table
 * of it: asked of the index, each row's text was a lookup of its own (87 µs for 50 rows of
 * `the`, 69 µs joined).
 */
function withText(index: FullTextIndex, columns: string[], found: string): string {
  return `SELECT f.rowid, ${columns.map((column) => `t.${contentColumn(index, column)}`).join(', ')}
    FROM (${found}) f JOIN ${index.table}_content t ON t.id = f.rowid`;
}

/**
 * The documents of the `limit` best matches, in their order. A product deleted since its match
 * was read is left out and the next match read in its place.
 */
function documentsOf(prepareColumns: Prepare, g: number, ranked: Array<{ match: MatchText; score: number }>, limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  let next = 0;
  while (hits.length < limit && next < ranked.length) {
    const wanted = ranked.slice(next, next + limit - hits.length);
    next += wanted.length;
    const rows = prepareColumns(
      `SELECT ${ROW} FROM ${table('products', g)} WHERE seq IN (${placeholders(wanted.length)}) AND deleted = 0`,
    ).all(...wanted.map(({ match }) => match.seq)) as unknown as DocumentColumns[];
    const bySeq = new Map(rows.map((row) => documentOfColumns<'products'>(row)).map((doc) => [doc.seq, doc]));
    for (const { match, score } of wanted) {
      const doc = bySeq.get(match.seq);
      if (doc) hits.push({ doc, score });
    }
  }
  return hits;
}
