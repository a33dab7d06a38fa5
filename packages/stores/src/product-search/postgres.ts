// Product search on the PostgreSQL read store: the query planned with the generation's vocabulary
// (planner.ts, as on SQLite), the newest SEARCH_CANDIDATES live products whose words match it, then,
// if there were that many, the newest whose names match, and the whole lot ranked by
// rankByRelevance(): the same plan, candidates and order as the SQLite adapter, and the same bounds
// on a query's work (newestMatches).
import type { Query } from '../read-store/postgres-indexes.ts';
import type { PostgresReadStore } from '../read-store/postgres.ts';
import { ROW, type Row, table } from '../read-store/postgres-schema.ts';
import { toDocument } from '../read-store/documents.ts';
import {
  alternativesOf,
  deletionVariants,
  holdsEvery,
  isOneEditApart,
  planQuery,
  type QueryWord,
  rankByRelevance,
  SEARCH_CANDIDATES,
  SEARCH_SCAN_CAP,
  searchTerms,
  splitByBudget,
  type Vocabulary,
} from './planner.ts';
import type { ProductSearch } from './port.ts';

/** A word as a lexeme of a tsquery: quoted, so that nothing in it is read as query syntax. */
const lexeme = (word: string) => `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** A tsquery: every query word, or one of the words it stands for (or, for the last, a word it starts), must be there. */
export function tsQuery(query: QueryWord[]): string {
  return query
    .map((word) => {
      const { words, startOf } = alternativesOf(word);
      const alternatives = [...(startOf === undefined ? [] : [`${lexeme(startOf)}:*`]), ...words.map(lexeme)];
      return alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' | ')})`;
    })
    .join(' & ');
}

/** What bounds a search's work however many products match (docs/api.md#search); tests make them small. */
export interface PostgresSearchBounds {
  /** POSTGRES_POSTINGS_BUDGET: the most list entries the GIN index is given to gather. */
  postings: number;
  /** SEARCH_SCAN_CAP: the most of those matches read to look for the other words. */
  scanned: number;
  /** SEARCH_SCAN_ROWS: the most of the newest products read row by row for common words only. */
  rows: number;
}

/** Product search on the products of the PostgreSQL read store `store` (opened with postgresProductIndex). */
export function postgresProductSearch(store: PostgresReadStore, bounds: PostgresSearchBounds = SEARCH_BOUNDS): ProductSearch {
  return {
    async search(text, limit) {
      if (searchTerms(text).length === 0) return { hits: [], complete: true };
      return store.readActive(async (query, g) => {
        const planned = await planQuery(text, vocabularyOf(query, g));
        if (planned.some((word) => word.standsForNothing)) return { hits: [], complete: true };
        const postings = await postingsOf(query, g, planned);
        const full = await newestMatches(
          query,
          g,
          'words',
          planned,
          postings.map((p) => p.all),
          bounds,
        );
        let complete = full.complete;
        const rows = full.rows;
        // Names are in the full words too: fewer matches there than that, and there are no more in names.
        if (rows.length === SEARCH_CANDIDATES) {
          const names = await newestMatches(
            query,
            g,
            'name_words',
            planned,
            postings.map((p) => p.names),
            bounds,
          );
          complete &&= names.complete;
          const read = new Set(rows.map((row) => row.id));
          rows.push(...names.rows.filter((row) => !read.has(row.id)));
        }
        const docs = rows.map((row) => toDocument<'products'>(row));
        return { hits: rankByRelevance(docs, planned, limit), complete };
      });
    },
  };
}

type ProductRow = Row & Record<string, unknown>;

/**
 * The newest SEARCH_CANDIDATES live products whose `column` holds every word of `query`, by work
 * bounded as on SQLite (docs/api.md#search), whatever the store holds. The words' lists (`postings`,
 * from the vocabularies) choose the plan; PostgreSQL's planner is not left to guess, since it
 * cannot know how often words meet, and a wrong guess at 1,000,000 events read every row of the
 * table or every entry of a common word (0.5-0.7 s measured):
 * - the rarest words whose lists fit the budget are matched by the GIN index, all their matches
 *   (at most the budget), the newest kept; the other words are looked for in the text of those,
 *   the newest SEARCH_SCAN_CAP at most;
 * - when even the rarest word is common, the newest products are read by `seq` and matched row by
 *   row, SEARCH_SCAN_ROWS at most: common words are met within a few rows.
 * `complete` is false when a bound stopped it before it had looked at every product that could match.
 */
async function newestMatches(
  query: Query,
  g: number,
  column: 'words' | 'name_words',
  planned: QueryWord[],
  postings: number[],
  bounds: PostgresSearchBounds,
): Promise<{ rows: ProductRow[]; complete: boolean }> {
  const products = table('products', g);
  const { intersected, checked } = splitByBudget(planned, postings, bounds.postings);
  if (Math.min(...postings) > bounds.postings) {
    // The newest rows, by the index on seq, each tested as it comes: no ORDER BY outside, which
    // would read all `rows` of them before keeping any (measured: the cost followed the bound).
    const found = await query<{ seq: string }>(
      `SELECT seq FROM (SELECT seq, ${column} FROM ${products} WHERE NOT deleted ORDER BY seq DESC LIMIT ${bounds.rows}) newest
        WHERE ${column} @@ $1::tsquery LIMIT ${SEARCH_CANDIDATES}`,
      [tsQuery(planned)],
    );
    const rows = await bySeq(
      query,
      products,
      found.map((row) => row.seq),
    );
    // Fewer than it looks for: it stopped at its bound, unless the table has no more rows.
    return { rows, complete: rows.length === SEARCH_CANDIDATES || (await liveProducts(query, g)) <= bounds.rows };
  }
  // MATERIALIZED: the matches are gathered by the GIN index before they are ordered, not found by
  // walking `seq` and testing each row. Their rows are read apart, by seq: joined in one statement,
  // the planner read the whole table to join them (8-46 ms at 1,000,000 events).
  const matched = async (limit: number) => {
    const found = await query<{ seq: string }>(
      `WITH matched AS MATERIALIZED (SELECT seq FROM ${products} WHERE ${column} @@ $1::tsquery AND NOT deleted)
       SELECT seq FROM matched ORDER BY seq DESC LIMIT ${limit}`,
      [tsQuery(intersected)],
    );
    return bySeq(
      query,
      products,
      found.map((row) => row.seq),
    );
  };
  if (checked.length === 0) return { rows: await matched(SEARCH_CANDIDATES), complete: true };
  const holdsTheRest = holdsEvery(checked);
  const scanned = await matched(bounds.scanned);
  const rows = scanned
    .filter((row) => {
      const fields = JSON.parse(row.body) as { name: string; description: string };
      return holdsTheRest(fields.name, column === 'words' ? fields.description : undefined);
    })
    .slice(0, SEARCH_CANDIDATES);
  return { rows, complete: rows.length === SEARCH_CANDIDATES || scanned.length < bounds.scanned };
}

/**
 * The list entries the GIN index is given to gather, at most: about 0.9 µs each here, so a word
 * listed 45,000 times (under SQLite's budget) took 42 ms at 1,000,000 events; this many take 9 ms or so.
 */
export const POSTGRES_POSTINGS_BUDGET = 10_000;
/**
 * The most of the newest products a search of common words only reads, row by row (a test of
 * each row's tsvector, about a microsecond). A word past the budget is in more than one product
 * of a hundred up to 1,000,000 of them, and so met 50 times within about 5,000 rows.
 */
export const SEARCH_SCAN_ROWS = 10_000;
const SEARCH_BOUNDS: PostgresSearchBounds = { postings: POSTGRES_POSTINGS_BUDGET, scanned: SEARCH_SCAN_CAP, rows: SEARCH_SCAN_ROWS };

/** The products with these seqs, newest first. */
const bySeq = (query: Query, products: string, seqs: string[]) =>
  seqs.length === 0
    ? Promise.resolve([])
    : query<ProductRow>(`SELECT ${ROW} FROM ${products} WHERE seq = ANY($1::bigint[]) ORDER BY seq DESC`, [seqs]);

const liveProducts = async (query: Query, g: number) =>
  Number(
    (await query<{ n: string }>(`SELECT n FROM ${table('counts', g)} WHERE collection = 'products' AND fields = '' AND value = ''`))[0]
      ?.n ?? 0,
  );

/** Past this many words a prefix starts, its list counts as longer than any budget: summing them would cost more than it saves. */
const PREFIX_WORDS_SUMMED = 200;

/**
 * An upper bound on each query word's list in each column: the products holding each of its
 * alternatives, added up, from the vocabularies in one statement, and for a prefix from the words
 * it starts (as the SQLite adapter's postingsOf).
 */
async function postingsOf(query: Query, g: number, planned: QueryWord[]): Promise<Array<{ all: number; names: number }>> {
  const allTerms = table('products_terms', g);
  const nameTerms = table('products_name_terms', g);
  const alternatives = planned.map(alternativesOf);
  const words = [...new Set(alternatives.flatMap((a) => a.words))];
  const rows = await query<{ term: string; a: number; n: number }>(
    `SELECT w.term, coalesce(a.docs, 0) AS a, coalesce(n.docs, 0) AS n FROM unnest($1::text[]) AS w(term)
       LEFT JOIN ${allTerms} a ON a.term = w.term LEFT JOIN ${nameTerms} n ON n.term = w.term`,
    [words],
  );
  const listed = new Map(rows.map((row) => [row.term, { all: Number(row.a), names: Number(row.n) }]));
  const started = async (terms: string, prefix: string) => {
    const [row] = await query<{ words: string; docs: string }>(
      `SELECT count(*) AS words, coalesce(sum(docs), 0) AS docs
         FROM (SELECT docs FROM ${terms} WHERE term >= $1 AND term < $2 LIMIT ${PREFIX_WORDS_SUMMED + 1}) prefixed`,
      [prefix, `${prefix}\u{10FFFF}`],
    );
    return Number(row!.words) > PREFIX_WORDS_SUMMED ? Number.POSITIVE_INFINITY : Number(row!.docs);
  };
  return Promise.all(
    alternatives.map(async ({ words: alternativeWords, startOf }) => {
      const total = { all: 0, names: 0 };
      for (const word of alternativeWords) {
        total.all += listed.get(word)?.all ?? 0;
        total.names += listed.get(word)?.names ?? 0;
      }
      if (startOf !== undefined) {
        total.all += await started(allTerms, startOf);
        total.names += await started(nameTerms, startOf);
      }
      return total;
    }),
  );
}

/** The generation's vocabularies as planQuery asks them, each from its table's own index. */
function vocabularyOf(query: Query, g: number): Vocabulary {
  const nameTerms = table('products_name_terms', g);
  const allTerms = table('products_terms', g);
  const variants = table('products_name_variants', g);
  const past = (prefix: string) => `${prefix}\u{10FFFF}`;
  return {
    async occurs(term, prefix) {
      const rows = prefix
        ? await query(`SELECT 1 FROM ${allTerms} WHERE term >= $1 AND term < $2 LIMIT 1`, [term, past(term)])
        : await query(`SELECT 1 FROM ${allTerms} WHERE term = $1`, [term]);
      return rows.length > 0;
    },
    async startingWith(prefix, limit) {
      const rows = await query<{ term: string }>(
        `SELECT term FROM ${nameTerms} WHERE term >= $1 AND term < $2 ORDER BY docs DESC, term LIMIT $3`,
        [prefix, past(prefix), limit],
      );
      return rows.map((row) => row.term);
    },
    async typosOf(word, limit) {
      // Every word sharing a variant with this one, then only those truly one edit away.
      const rows = await query<{ term: string }>(
        `SELECT DISTINCT t.term, t.docs FROM ${variants} v JOIN ${nameTerms} t ON t.term = v.term
          WHERE v.variant = ANY($1::text[]) ORDER BY t.docs DESC, t.term`,
        [deletionVariants(word)],
      );
      return rows
        .map((row) => row.term)
        .filter((term) => isOneEditApart(term, word))
        .slice(0, limit);
    },
  };
}
