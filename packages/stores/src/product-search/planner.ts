// Turns what a user typed into a full-text query: every run of letters or digits becomes a quoted
// term, the last one (of two characters or more) also matches as the start of a word (search as
// you type), every other word also stands for the product-name words it starts, and a long word
// for the name words one typo away. Nothing the user typed can act as query syntax or a regular
// expression. Both adapters plan and rank the same way, here.
import { SEARCH_MAX_WORDS } from '@eventide/kernel/search/limits.ts';
import type { ReadDocument } from '../read-store/port.ts';
import { folded, isAscii, normalized, words } from '@eventide/kernel/search/words.ts';

/** A shorter last term matches whole words only: a one-letter prefix would match most of the catalogue. */
export const MIN_PREFIX = 2;
/**
 * How many matches a query ranks, at most, whatever it matches: the newest this many whose
 * names hold every term, and the newest this many that hold them anywhere. Its cost stops
 * growing with the number of matches there (measured at 1M events: docs/api.md#search).
 */
export const SEARCH_CANDIDATES = 50;

/** The terms of a query; the API refuses more than SEARCH_MAX_WORDS, and the store never looks past them. */
export function searchTerms(text: string): string[] {
  return words(text).slice(0, SEARCH_MAX_WORDS);
}

/** Whether the term at `index` of `terms` matches the start of a word (else a whole word). */
export const isPrefix = (terms: string[], index: number) => index === terms.length - 1 && [...terms[index]!].length >= MIN_PREFIX;

/** Words of a product name that each query word may also stand for, found in the names' vocabulary. */
export const PREFIX_EXPANSIONS = 5;
/**
 * The most words a last word typed stands for, where the store names them rather than its engine
 * (the SQLite store, past its prefix index): the commonest this many words it starts. Each is one
 * more list to read, so a query's cost stays bounded however many words a prefix starts.
 */
export const MAX_PREFIX_WORDS = 32;
export const TYPO_EXPANSIONS = 3;
/** Shorter words are not forgiven a typo: one letter changed in four makes another word too often. */
export const MIN_TYPO_LENGTH = 5;
/**
 * Nor longer ones: the strings one edit away grow with the square of the length (a 200-letter
 * word has 15,000 of them, 3 MB to look up), and no word of a product name is that long.
 */
export const MAX_TYPO_LENGTH = 24;

/** A query word and the name words it also matches: ones it starts (typed so far) and ones a typo away. */
export interface QueryWord {
  term: string;
  /** The last word (of MIN_PREFIX letters or more) matches the start of any word, in the engine's own index. */
  prefix: boolean;
  /**
   * For a prefix: the words of the index it starts, when the engine is not to gather them itself
   * (the SQLite store's, past the lengths FTS5 keeps a prefix index for: sqlite.ts).
   */
  expansions?: string[];
  completions: string[];
  typos: string[];
  /**
   * The vocabulary holds no word this one can stand for (none as typed or, for a prefix, that it
   * starts; no completion, no typo): no product can match the query, and the index is not asked.
   */
  standsForNothing?: true;
}

/** What an adapter's vocabulary of product-name words answers, each list most frequent first. */
export interface Vocabulary {
  /** Whether some live product holds the word as typed (or, for a prefix, a word it starts). */
  occurs(term: string, prefix: boolean): Promise<boolean>;
  startingWith(prefix: string, limit: number): Promise<string[]>;
  /** Words of the vocabulary one edit away from `word` (oneEditAway), at most `limit` of them. */
  typosOf(word: string, limit: number): Promise<string[]>;
}

/** Every string one edit away (a letter deleted, inserted, replaced, or two neighbours swapped). */
export function oneEditAway(word: string): string[] {
  const letters = [...word];
  const alphabet = new Set([...'abcdefghijklmnopqrstuvwxyz0123456789', ...letters]);
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const head = letters.slice(0, i).join('');
    const tail = letters.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1).join(''));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2).join(''));
    for (const c of alphabet) {
      out.add(head + c + tail.join(''));
      if (tail.length > 0) out.add(head + c + tail.slice(1).join(''));
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * The strings one letter shorter, and the word itself: two words are at most one edit apart only
 * if these sets of theirs meet (a deletion, an insertion, a replacement or a swap of neighbours
 * each leave a string both hold), so a vocabulary that keeps each word's variants finds its
 * neighbours with length + 1 lookups instead of the ~50 per letter oneEditAway makes.
 */
export function deletionVariants(word: string): string[] {
  const letters = [...word];
  const out = new Set([word]);
  for (let i = 0; i < letters.length; i++) out.add(letters.slice(0, i).join('') + letters.slice(i + 1).join(''));
  return [...out];
}

/** Whether `a` and `b` differ by exactly one deletion, insertion, replacement or swap of neighbours. */
export function isOneEditApart(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (dx: number, dy: number) => x.slice(i + dx).join('') === y.slice(i + dy).join('');
  if (x.length > y.length) return rest(1, 0);
  if (x.length < y.length) return rest(0, 1);
  return rest(1, 1) || (x[i] === y[i + 1] && x[i + 1] === y[i] && rest(2, 2));
}

/**
 * Plans a query: its words, and for each the name words it may stand for. A word that no product
 * holds as typed is completed from the vocabulary (unless it is the last, which the engine matches
 * as a prefix itself) and, at MIN_TYPO_LENGTH letters or more, also matches the name words one edit
 * away. A word that some product holds stands for itself only: "cable" must not bring in "table",
 * whose many matches would crowd the cables out of the candidates.
 */
export async function planQuery(text: string, vocabulary: Vocabulary): Promise<QueryWord[]> {
  const terms = searchTerms(text);
  return Promise.all(
    terms.map(async (term, i) => {
      const prefix = isPrefix(terms, i);
      const plain = { term, prefix, completions: [], typos: [] };
      const letters = [...term].length;
      const forgivable = letters >= MIN_TYPO_LENGTH && letters <= MAX_TYPO_LENGTH;
      // A prefix gets no completions, and no typos unless forgivable: whether a product holds it
      // would change nothing, so the vocabulary is not asked (a statement for every short last word).
      if (letters < MIN_PREFIX || (prefix && !forgivable) || (await vocabulary.occurs(term, prefix))) return plain;
      const completions = prefix ? [] : await vocabulary.startingWith(term, PREFIX_EXPANSIONS);
      const typos = forgivable
        ? (await vocabulary.typosOf(term, TYPO_EXPANSIONS + 1)).filter((w) => !(prefix && w.startsWith(term))).slice(0, TYPO_EXPANSIONS)
        : [];
      return completions.length + typos.length === 0 ? { ...plain, standsForNothing: true as const } : { ...plain, completions, typos };
    }),
  );
}

/** A term as an FTS5 string: literal, whatever it holds. */
export const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * What a query word matches: any of `words` whole, or (`startOf`) any word that starts so, which
 * the engine finds in its own prefix index. ftsQuery, holdsEvery and the SQLite store's estimate
 * of a query's cost all read a word this way, so they agree on what it stands for.
 */
export function alternativesOf({ term, prefix, expansions, completions, typos }: QueryWord): { words: string[]; startOf?: string } {
  const typed = !prefix ? [term] : (expansions ?? []);
  // A word may be both a completion and a typo away (granit: granite); once is enough.
  const words = [...new Set([...typed, ...completions, ...typos])];
  if (prefix && expansions === undefined) return { words, startOf: term };
  // A prefix that starts no word, with nothing else to stand for: the word itself, which matches nothing.
  return { words: words.length === 0 ? [term] : words };
}

/** An FTS5 MATCH expression: every query word, or one of the words it stands for, must appear. */
export function ftsQuery(query: QueryWord[]): string {
  return query
    .map((word) => {
      const { words, startOf } = alternativesOf(word);
      const alternatives = [...(startOf === undefined ? [] : [`${quoted(startOf)}*`]), ...words.map(quoted)];
      return alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' OR ')})`;
    })
    .join(' AND ');
}

/**
 * A test of whether a product's text (its name, and its description where the index holds it) holds
 * every one of `query`'s words, each in either, as ftsQuery matches them, for many products in turn:
 * for each word a pattern of its alternatives between word boundaries. Text and words all ASCII are
 * matched as they are, ignoring case, which needs no Unicode classes (those made a test three times
 * slower) and no folded copy of the text (a search over its budget reads 500 products' text);
 * other text is folded first, as words() folds it.
 */
export function holdsEvery(query: QueryWord[]): (name: string, description?: string) => boolean {
  const alternatives = query.map(alternativesOf);
  const patterns = (letter: string, flags: string) =>
    alternatives.map(({ words, startOf }) => {
      const whole = words.map((word) => `${literally(word)}(?!${letter})`);
      return new RegExp(`(?<!${letter})(?:${[...whole, ...(startOf === undefined ? [] : [literally(startOf)])].join('|')})`, flags);
    });
  const unicode = patterns('[\\p{L}\\p{N}]', 'u');
  const ascii = alternatives.every(({ words, startOf }) => words.every(isAscii) && isAscii(startOf ?? ''))
    ? patterns('[a-z0-9]', 'i')
    : undefined;
  /** The patterns for `text`, and the text they read. */
  const readAs = (text: string): [RegExp[], string] => (ascii && isAscii(text) ? [ascii, text] : [unicode, normalized(text)]);
  return (name, description) => {
    const named = readAs(name);
    const described = description === undefined ? undefined : readAs(description);
    return alternatives.every((_, i) => named[0][i]!.test(named[1]) || (described !== undefined && described[0][i]!.test(described[1])));
  };
}

/** A word as a pattern that matches it as written: words() yields none that need it, the vocabulary of an older store might. */
const literally = (word: string) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The most entries of its words' lists in a full-text index that a search lets the engine
 * intersect. FTS5 finds the matches of words that often occur together by reading a little of
 * each list, but to learn that common words never do (a name's material, say: `ceramic
 * aluminum`), it reads every list to its end, and it cannot skip ahead within a list (a bound on
 * rowids measured no faster): at 1,000,000 events, `the of ceramic aluminum` took 26 ms. Bounded
 * here, whatever the store holds. At 200,000 entries (3.5-6 ms) a query of common name words took
 * 6-8 ms, and 16 of them at once made each wait for the others: 150-580 ms at p99. At 50,000 they
 * take 1.4-2 ms (2026-11-27, 1,000,000 events); what the bound leaves unread, the answer says
 * (SearchResult.complete).
 */
export const SEARCH_POSTINGS_BUDGET = 50_000;
/**
 * How many products holding a query's rarer words a search over the budget reads, at most, to
 * find those that hold the rest: 1-2 µs each (1,000 made `ceramic co` 3.3 ms instead of 1.2);
 * about 0.6 since they are read as arrays and their text tested uncopied (2026-12-01).
 */
export const SEARCH_SCAN_CAP = 500;

/**
 * A query the engine can intersect within the budget, given how many products each word's
 * alternatives are listed under (`postings`, in query order): its rarest words while their lists
 * fit, at least one, and the rest to be checked on the products those match.
 */
export function splitByBudget<T>(query: T[], postings: number[], budget = SEARCH_POSTINGS_BUDGET): { intersected: T[]; checked: T[] } {
  const rarestFirst = query.map((word, i) => ({ word, postings: postings[i]! })).sort((a, b) => a.postings - b.postings);
  const intersected: T[] = [];
  const checked: T[] = [];
  let total = 0;
  for (const { word, postings: listed } of rarestFirst) {
    total += listed;
    if (intersected.length === 0 || total <= budget) intersected.push(word);
    else checked.push(word);
  }
  return { intersected, checked };
}

/** A query of literal words with no vocabulary: what the raw floor of the benchmark runs. */
export const literalQuery = (text: string): QueryWord[] =>
  searchTerms(text).map((term, i, terms) => ({ term, prefix: isPrefix(terms, i), completions: [], typos: [] }));

/**
 * How well a product matches: each query word's matches in the name count five times those in
 * the description; a whole word counts 1.2, a word it starts (or completes to) 1, a word a typo
 * away 0.5, so an exact match ranks above a forgiven one. Built once per query, as ranking scores
 * every candidate with it.
 */
export function relevanceFor(query: QueryWord[]): (fields: ProductText) => number {
  const weight = (word: string, q: QueryWord) => {
    if (word === q.term) return 1.2;
    if ((q.prefix && word.startsWith(q.term)) || q.completions.includes(word)) return 1;
    return q.typos.includes(word) ? 0.5 : 0;
  };
  const weightOf = (word: string) => {
    let total = 0;
    for (const q of query) total += weight(word, q);
    return total;
  };
  // Only a word that starts with a query word, a completion or a typo can weigh anything, so the
  // text is searched for those words alone: splitting every word out of every description was
  // most of ranking's time (15 times this search's, measured on the seed's descriptions).
  const starts = [...new Set(query.flatMap((q) => [q.term, ...q.completions, ...q.typos]))].filter((w) => WHOLE_WORD.test(w));
  if (starts.length === 0) return () => 0;
  const found = new RegExp(`(?<![\\p{L}\\p{N}])(?:${starts.join('|')})[\\p{L}\\p{N}]*`, 'gu');
  /** Text that needed folding beyond lower case: the words found by a pattern with Unicode's classes. */
  const scoreFolded = (plain: string) => {
    let total = 0;
    found.lastIndex = 0;
    for (let match = found.exec(plain); match !== null; match = found.exec(plain)) total += weightOf(match[0]);
    return total;
  };
  // An ASCII text cannot hold the others, and its letters and digits are [a-z0-9] once lowered.
  const asciiStarts = starts.filter(isAscii);
  /** What a word found that is just one of the words looked for weighs: most are, and need no slice of the text. */
  const startWeights = asciiStarts.map(weightOf);
  /**
   * ASCII text, lowered: each start of a word where one of the words looked for begins, found with
   * indexOf, which on the seed's descriptions took 40% of the time of the Unicode pattern (and of
   * the test for other characters it needs first).
   */
  const scoreAscii = (plain: string) => {
    let total = 0;
    let counted: Set<number> | undefined;
    for (let i = 0; i < asciiStarts.length; i++) {
      const start = asciiStarts[i]!;
      for (let at = plain.indexOf(start); at !== -1; at = plain.indexOf(start, at + 1)) {
        if (at > 0 && isAsciiWordCode(plain.charCodeAt(at - 1))) continue;
        // A word that two of the words looked for begin is weighed once, as the pattern finds it.
        if (asciiStarts.length > 1) {
          counted ??= new Set();
          if (counted.has(at)) continue;
          counted.add(at);
        }
        let end = at + start.length;
        while (end < plain.length && isAsciiWordCode(plain.charCodeAt(end))) end++;
        total += end === at + start.length ? startWeights[i]! : weightOf(plain.slice(at, end));
      }
    }
    return total;
  };
  const score = (raw: string) => {
    return isAscii(raw) ? scoreAscii(raw.toLowerCase()) : scoreFolded(folded(raw));
  };
  return (fields) => 5 * score(fields.name) + score(fields.description);
}
/** A lower-case ASCII letter or a digit: what [\p{L}\p{N}] is in lowered ASCII text. */
const isAsciiWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
/** A word as words() splits them: nothing in it that a pattern could read as syntax. */
const WHOLE_WORD = /^[\p{L}\p{N}]+$/u;

/** What relevance reads of a product. */
export interface ProductText {
  name: string;
  description: string;
}

/** Matches with their text: a product's seq and the fields relevance reads. */
export interface MatchText {
  seq: number;
  fields: ProductText;
}

/** Every match scored, most relevant first, the newer of two equals first: the one order of results, in both adapters. */
export function byRelevance<T extends MatchText>(matches: T[], query: QueryWord[]): Array<{ match: T; score: number }> {
  const relevance = relevanceFor(query);
  return matches.map((match) => ({ match, score: relevance(match.fields) })).sort((a, b) => b.score - a.score || b.match.seq - a.match.seq);
}

/** The `limit` best of `docs` for the query (byRelevance). */
export function rankByRelevance(
  docs: ReadDocument<'products'>[],
  query: QueryWord[],
  limit: number,
): Array<{ doc: ReadDocument<'products'>; score: number }> {
  return byRelevance(docs, query)
    .slice(0, limit)
    .map(({ match, score }) => ({ doc: match, score }));
}

/** How a change of a product's name changes the vocabulary of names: +1 or -1 per distinct word. */
export function vocabularyChanges(before: string | undefined, after: string | undefined): Array<[string, number]> {
  const changes = new Map<string, number>();
  for (const word of new Set(words(before ?? ''))) changes.set(word, (changes.get(word) ?? 0) - 1);
  for (const word of new Set(words(after ?? ''))) changes.set(word, (changes.get(word) ?? 0) + 1);
  return [...changes].filter(([, delta]) => delta !== 0);
}
