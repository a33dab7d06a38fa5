// The words of a search query or of a product's text, as both engines see them: lower case,
// accents removed, split on anything that is not a letter or a digit. The contract's (a query's
// words are what its limits count), the planner's and the indexes' (read-store/) alike.

const WORD = /[\p{L}\p{N}]+/gu;
/** Lower case, accents removed (as FTS5's remove_diacritics does), so both engines agree. */
export function words(text: string): string[] {
  return normalized(text).match(WORD) ?? [];
}

/** The text words() splits: lower case, accents removed. */
export function normalized(text: string): string {
  // ASCII has nothing to decompose: skipping the normalisation for it saves a third of ranking's time.
  return isAscii(text) ? text.toLowerCase() : folded(text);
}
/** normalized() of a text known to hold more than ASCII. */
export const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
/**
 * Only ASCII takes one byte a character in UTF-8. Counting them runs in native code, in 40% of the
 * time of a pattern looking for a character outside ASCII (which was a third of ranking's time).
 */
export const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;
