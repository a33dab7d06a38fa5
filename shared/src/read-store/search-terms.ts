// Turns what a user typed into a full-text query that matches words literally: every run of
// letters or digits becomes a quoted term, the last one also matches as a prefix (search as you
// type), and nothing the user typed can act as query syntax or a regular expression.
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_TERMS = 8;

/** Lower case, accents removed (as FTS5's remove_diacritics does), so both engines agree. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(WORD) ?? [];
}

export function searchTerms(text: string): string[] {
  return words(text).slice(0, MAX_TERMS);
}

/** An FTS5 MATCH expression: all terms must appear; the last may be a prefix. */
export function ftsQuery(terms: string[]): string {
  return terms.map((term, i) => `"${term.replaceAll('"', '""')}"${i === terms.length - 1 ? '*' : ''}`).join(' ');
}
