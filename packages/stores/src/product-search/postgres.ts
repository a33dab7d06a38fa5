// Product search on the PostgreSQL read store: the query planned with the generation's vocabulary
// (planner.ts, as on SQLite), the newest SEARCH_CANDIDATES live products whose words match it read
// by their GIN index, then, if there were that many, the newest whose names match, and the whole
// lot ranked by rankByRelevance(): the same plan, candidates and order as the SQLite adapter.
import type { Query } from '../read-store/postgres-indexes.ts';
import type { PostgresReadStore } from '../read-store/postgres.ts';
import { ROW, type Row, table } from '../read-store/postgres-schema.ts';
import { toDocument } from '../read-store/documents.ts';
import {
  alternativesOf,
  isOneEditApart,
  deletionVariants,
  planQuery,
  type QueryWord,
  rankByRelevance,
  SEARCH_CANDIDATES,
  searchTerms,
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

/** Product search on the products of the PostgreSQL read store `store` (opened with postgresProductIndex). */
export function postgresProductSearch(store: PostgresReadStore): ProductSearch {
  return {
    async search(text, limit) {
      if (searchTerms(text).length === 0) return { hits: [], complete: true };
      return store.readActive(async (query, g) => {
        const planned = await planQuery(text, vocabularyOf(query, g));
        if (planned.some((word) => word.standsForNothing)) return { hits: [], complete: true };
        const matching = tsQuery(planned);
        const newest = (column: string) =>
          query<Row & Record<string, unknown>>(
            `SELECT ${ROW} FROM ${table('products', g)} WHERE ${column} @@ $1::tsquery AND NOT deleted ORDER BY seq DESC LIMIT ${SEARCH_CANDIDATES}`,
            [matching],
          );
        const rows = await newest('words');
        // Names are in the full words too: fewer matches there than that, and there are no more in names.
        if (rows.length === SEARCH_CANDIDATES) {
          const read = new Set(rows.map((row) => row.id));
          rows.push(...(await newest('name_words')).filter((row) => !read.has(row.id)));
        }
        const docs = rows.map((row) => toDocument<'products'>(row));
        return { hits: rankByRelevance(docs, planned, limit), complete: true };
      });
    },
  };
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
