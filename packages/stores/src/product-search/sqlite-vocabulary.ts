// The words of a generation's products as search plans a query with them (planQuery's
// Vocabulary), each answered from a vocabulary table's own index: the names' words with their
// one-letter-shorter variants, and the words of names and descriptions together.
import { LIMIT_PLACEHOLDER } from '../sqlite-file.ts';
import type { StatementSync } from 'node:sqlite';
import { table } from '../read-store/sqlite-schema.ts';
import { alternativesOf, deletionVariants, isOneEditApart, type QueryWord, type Vocabulary } from './planner.ts';
import { namesItsPrefixWords, wordsStartingWith } from './sqlite-schema.ts';

type Prepare = (sql: string) => StatementSync;

/** Whether a vocabulary table holds the word, or as a prefix any word it starts. */
function holds(prepare: Prepare, terms: string, term: string, prefix: boolean): boolean {
  const row = prefix
    ? prepare(`SELECT 1 FROM ${terms} WHERE term >= ? AND term < ? LIMIT 1`).get(term, `${term}\u{10FFFF}`)
    : prepare(`SELECT 1 FROM ${terms} WHERE term = ?`).get(term);
  return row !== undefined;
}

/**
 * One query's vocabulary (make one per search: it remembers what it read). `prefixWords` is the
 * words a long last word stands for (withPrefixWords), read once for both planning and the query.
 * `words` are the query's: which of them products hold as typed is read for all in one statement
 * when planning first asks, since each statement also begins and ends a read of the file (eight
 * lookups were 14% of an eight-word search, 1,000,000 events).
 */
export function sqliteVocabulary(
  prepare: Prepare,
  generation: number,
  words: readonly string[],
): Vocabulary & { prefixWords(prefix: string): string[] } {
  const terms = table('products_name_terms', generation);
  const variants = table('products_name_variants', generation);
  const allTerms = table('products_terms', generation);
  const starting = new Map<string, string[]>();
  let held: Set<string> | undefined;
  const heldAsTyped = (term: string) => {
    held ??= new Set(
      (
        prepare(`SELECT term FROM ${allTerms} WHERE term IN (SELECT value FROM json_each(?))`).all(JSON.stringify(words)) as Array<{
          term: string;
        }>
      ).map((row) => row.term),
    );
    return words.includes(term) ? held.has(term) : holds(prepare, allTerms, term, false);
  };
  const prefixWords = (prefix: string) => {
    let found = starting.get(prefix);
    if (!found) {
      found = wordsStartingWith(prepare, generation, prefix);
      starting.set(prefix, found);
    }
    return found;
  };
  return {
    prefixWords,
    // The words of names and descriptions together, names' words among them: one lookup of a few
    // microseconds (the full-text probe that found words of descriptions cost 60 µs at 1M events).
    // Each statement also begins and ends a read of the file, which costs more than the lookup
    // in a busy process, so a long prefix asks the words it starts once, for the query too.
    occurs: async (term, prefix) => {
      if (!prefix) return heldAsTyped(term);
      return namesItsPrefixWords(term) ? prefixWords(term).length > 0 : holds(prepare, allTerms, term, true);
    },
    async startingWith(prefix, limit) {
      const rows = prepare(
        `SELECT term FROM ${terms} WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ${LIMIT_PLACEHOLDER}`,
      ).all(prefix, `${prefix}\u{10FFFF}`, limit) as Array<{ term: string }>;
      return rows.map((r) => r.term);
    },
    async typosOf(word, limit) {
      // Every word sharing a variant with this one, then only those truly one edit away (two
      // words that each lose a different letter may share one and still be two edits apart).
      const rows = prepare(
        `SELECT DISTINCT t.term, t.docs FROM ${variants} v JOIN ${terms} t ON t.term = v.term
           WHERE v.variant IN (SELECT value FROM json_each(?)) ORDER BY t.docs DESC, t.term`,
      ).all(JSON.stringify(deletionVariants(word))) as Array<{ term: string }>;
      return rows
        .map((r) => r.term)
        .filter((term) => isOneEditApart(term, word))
        .slice(0, limit);
    },
  };
}

/** How many products each index lists a query word's alternatives under, as splitByBudget weighs them. */
export interface Postings {
  /** In the full index (products_terms: names and descriptions). */
  all: number;
  /** In the names' index (products_name_terms). */
  names: number;
}

/**
 * More words than this that a prefix starts, and its list counts as longer than any budget:
 * summing them all would cost more than the estimate saves (877 words start `co`: 97 µs).
 */
const PREFIX_WORDS_SUMMED = 200;

/**
 * An upper bound on each query word's list in each index: the products holding each of its
 * alternatives, added up (a product holding two is counted twice), from the vocabulary tables
 * in one statement, and for a word the engine completes from its prefix index, from the words it
 * starts. Unknown to the vocabulary: nothing to list.
 */
export function postingsOf(prepare: Prepare, generation: number, query: QueryWord[]): Postings[] {
  const allTerms = table('products_terms', generation);
  const nameTerms = table('products_name_terms', generation);
  const alternatives = query.map(alternativesOf);
  const rows = prepare(
    `SELECT j.value AS term, coalesce(a.docs, 0) AS a, coalesce(n.docs, 0) AS n FROM json_each(?) j
       LEFT JOIN ${allTerms} a ON a.term = j.value LEFT JOIN ${nameTerms} n ON n.term = j.value`,
  ).all(JSON.stringify([...new Set(alternatives.flatMap((a) => a.words))])) as Array<{ term: string; a: number; n: number }>;
  const listed = new Map(rows.map((row) => [row.term, { all: Number(row.a), names: Number(row.n) }]));
  const started = (terms: string, prefix: string) => {
    const { words, docs } = prepare(
      `SELECT count(*) AS words, coalesce(sum(docs), 0) AS docs FROM (SELECT docs FROM ${terms} WHERE term >= ? AND term < ? LIMIT ${PREFIX_WORDS_SUMMED + 1})`,
    ).get(prefix, `${prefix}\u{10FFFF}`) as { words: number; docs: number };
    return words > PREFIX_WORDS_SUMMED ? Number.POSITIVE_INFINITY : Number(docs);
  };
  return alternatives.map(({ words, startOf }) => {
    const total = { all: 0, names: 0 };
    for (const word of words) {
      total.all += listed.get(word)?.all ?? 0;
      total.names += listed.get(word)?.names ?? 0;
    }
    if (startOf !== undefined) {
      total.all += started(allTerms, startOf);
      total.names += started(nameTerms, startOf);
    }
    return total;
  });
}
