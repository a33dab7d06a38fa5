// Product search on the SQLite read store: the query planned with the generation's vocabulary,
// a bounded number of candidates read from the full-text indexes with the text ranking reads,
// and the documents of the best of them (docs/api.md#search).
import type { StatementSync } from 'node:sqlite';
import type { SearchHit } from './port.ts';
import { byRelevance, ftsQuery, type MatchText, planQuery, SEARCH_CANDIDATES } from './search-terms.ts';
import { ROW, type Row, table, toDocument, withPrefixWords } from './sqlite-schema.ts';
import { sqliteVocabulary } from './sqlite-vocabulary.ts';

type Prepare = (sql: string) => StatementSync;

/** A row of a full-text index: a product's seq. */
interface IndexRow {
  rowid: number;
}
/** A row of the full index with the text it was indexed with. */
interface TextRow extends IndexRow {
  name: string;
  description: string;
}
const matchText = ({ rowid, name, description }: TextRow): MatchText => ({ seq: Number(rowid), fields: { name, description } });

const placeholders = (count: number) => Array(count).fill('?').join(', ');

/** The `limit` products of generation `g` that best match `text`, most relevant first. */
export async function searchProducts(prepare: Prepare, g: number, text: string, limit: number): Promise<SearchHit[]> {
  const vocabulary = sqliteVocabulary(prepare, g);
  const planned = await planQuery(text, vocabulary);
  if (planned.some((word) => word.standsForNothing)) return [];
  const query = planned.map((word) => withPrefixWords(word, vocabulary.prefixWords));
  const match = ftsQuery(query);
  const fts = table('products_fts', g);
  const names = table('products_names_fts', g);
  // Newest first is the index's own order, so each stops after SEARCH_CANDIDATES rows
  // however many products match; ranking all of them was what made common words slow.
  // The full index keeps each product's name and description, all that ranking reads, so
  // only the documents returned are read and parsed: reading and parsing every candidate's
  // was half of a search that matched many.
  const matches = (
    prepare(`SELECT rowid, name, description FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}`).all(
      match,
    ) as unknown as TextRow[]
  ).map(matchText);
  // Names are indexed in the full index too, so a query it matches fewer times than that
  // has no name matches beyond these. Skipping the second index halves a query that matches
  // little: a query that matches nothing costs a full intersection of its words' lists.
  if (matches.length === SEARCH_CANDIDATES) {
    const read = new Set(matches.map((m) => m.seq));
    const more = (
      prepare(`SELECT rowid FROM ${names} WHERE ${names} MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES}`).all(
        match,
      ) as unknown as IndexRow[]
    )
      .map((row) => Number(row.rowid))
      .filter((seq) => !read.has(seq));
    if (more.length > 0) {
      const texts = prepare(`SELECT rowid, name, description FROM ${fts} WHERE rowid IN (${placeholders(more.length)})`).all(...more);
      matches.push(...(texts as unknown as TextRow[]).map(matchText));
    }
  }
  return documentsOf(prepare, g, byRelevance(matches, query), limit);
}

/**
 * The documents of the `limit` best matches, in their order. A product deleted since its match
 * was read is left out and the next match read in its place.
 */
function documentsOf(prepare: Prepare, g: number, ranked: Array<{ match: MatchText; score: number }>, limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  let next = 0;
  while (hits.length < limit && next < ranked.length) {
    const wanted = ranked.slice(next, next + limit - hits.length);
    next += wanted.length;
    const rows = prepare(`SELECT ${ROW} FROM ${table('products', g)} WHERE seq IN (${placeholders(wanted.length)}) AND deleted = 0`).all(
      ...wanted.map(({ match }) => match.seq),
    ) as unknown as Row[];
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    for (const { match, score } of wanted) {
      const row = bySeq.get(match.seq);
      if (row) hits.push({ doc: toDocument(row), score });
    }
  }
  return hits;
}
