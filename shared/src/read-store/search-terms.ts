// Turns what a user typed into a full-text query that matches words literally: every run of
// letters or digits becomes a quoted term, the last one (of two characters or more) also matches
// as the start of a word (search as you type), and nothing the user typed can act as query syntax
// or a regular expression. Both adapters rank the same way, here.
import type { JsonValue } from '../event-store/port.ts';
import { SEARCH_MAX_WORDS } from '../api/search-limits.ts';

const WORD = /[\p{L}\p{N}]+/gu;
/** A shorter last term matches whole words only: a one-letter prefix would match most of the catalogue. */
export const MIN_PREFIX = 2;
/**
 * How many matches a query ranks, at most, whatever it matches: the newest this many whose
 * names hold every term, and the newest this many that hold them anywhere. Its cost stops
 * growing with the number of matches there (measured at 1M events: docs/api.md#search).
 */
export const SEARCH_CANDIDATES = 50;

/** Lower case, accents removed (as FTS5's remove_diacritics does), so both engines agree. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(WORD) ?? [];
}

/** The terms of a query; the API refuses more than SEARCH_MAX_WORDS, and the store never looks past them. */
export function searchTerms(text: string): string[] {
  return words(text).slice(0, SEARCH_MAX_WORDS);
}

/** Whether the term at `index` of `terms` matches the start of a word (else a whole word). */
export const isPrefix = (terms: string[], index: number) => index === terms.length - 1 && [...terms[index]!].length >= MIN_PREFIX;

/** An FTS5 MATCH expression: all terms must appear, the last (if long enough) as the start of a word. */
export function ftsQuery(terms: string[]): string {
  return terms.map((term, i) => `"${term.replaceAll('"', '""')}"${isPrefix(terms, i) ? '*' : ''}`).join(' ');
}

/**
 * How well a product matches: each term's matches in the name count five times those in the
 * description; a whole-word match counts a little more than a word that only starts with the term.
 */
export function relevance(fields: Record<string, JsonValue>, terms: string[]): number {
  const score = (text: JsonValue | undefined, term: string, prefix: boolean) =>
    words(String(text ?? '')).reduce((sum, word) => sum + (word === term ? 1.2 : prefix && word.startsWith(term) ? 1 : 0), 0);
  return terms.reduce((total, term, i) => {
    const prefix = isPrefix(terms, i);
    return total + 5 * score(fields.name, term, prefix) + score(fields.description, term, prefix);
  }, 0);
}
