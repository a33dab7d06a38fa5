// What the growth section asks of a store at each size (growth.ts): product ids to look up, and
// search words with how many products hold each, read from the read models the service serves.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SEARCH_MAX_WORDS } from '@eventide/kernel/search/limits.ts';
import { descriptionWordWithShare } from '../src/seed/data.ts';

export interface Sample {
  products: number;
  ids: string[];
  /**
   * The search words: SEARCH_WORDS, the same at every size, and STEADY_ANSWER's word of this
   * size, with how many products hold each at this size.
   */
  words: Array<{ q: string; matches: number; label: string }>;
  /** The longest query accepted: the most common name words, as many as a query may have. */
  commonWords: string;
  /** The most common words of names and descriptions together, as many as a query may have. */
  commonestWords: string[];
}

/** The same words at every size, so that each search row compares one query as the store grows. */
const SEARCH_WORDS = [
  { q: 'qqxzv', label: 'no match' },
  { q: descriptionWordWithShare(0), label: 'the rarest word' },
  { q: descriptionWordWithShare(0.0117), label: 'a word in ~1%' },
  { q: descriptionWordWithShare(0.9), label: 'a word in ~90%' },
];

/**
 * A word of about this many products at every size, a different word at each: its search does the
 * same work at every size (a search ranks at most 100 candidates), so its growth is the store's
 * own, where a fixed word's answer grows with the store (the rarest word holds no product at
 * 1,000 events and 99 at 1,000,000).
 */
const STEADY_ANSWER = 100;

/** Product ids to look up and how many products hold each search word, read from the served generation. */
export function sample(dataDir: string): Sample {
  const db = new DatabaseSync(join(dataDir, 'read.db'), { readOnly: true });
  try {
    const g = Number((db.prepare("SELECT value FROM read_meta WHERE key = 'active_generation'").get() as { value: number }).value);
    const products = Number((db.prepare(`SELECT COUNT(*) AS n FROM products_g${g} WHERE deleted = 0`).get() as { n: number }).n);
    const ids = (db.prepare(`SELECT id FROM products_g${g} ORDER BY random() LIMIT 1000`).all() as Array<{ id: string }>).map((r) => r.id);
    // A query's last word also matches as a prefix, so `matches` counts the products with the whole
    // word: the query matches at least those.
    const held = db.prepare(`SELECT docs FROM products_terms_g${g} WHERE term = ?`);
    // A word of 5 letters or more: a search also matches the words its last word starts, and a longer word starts fewer.
    const steady = db
      .prepare(
        `SELECT term, docs FROM products_terms_g${g} WHERE length(term) >= 5 AND term GLOB '[a-z]*' ORDER BY abs(docs - ?), term LIMIT 1`,
      )
      .get(STEADY_ANSWER) as { term: string; docs: number };
    return {
      products,
      ids,
      words: [
        ...SEARCH_WORDS.map((word) => ({ ...word, matches: Number((held.get(word.q) as { docs: number } | undefined)?.docs ?? 0) })),
        { q: steady.term, label: `a word in ~${STEADY_ANSWER} products`, matches: Number(steady.docs) },
      ],
      commonWords: (
        db.prepare(`SELECT term FROM products_name_terms_g${g} ORDER BY docs DESC LIMIT ${SEARCH_MAX_WORDS}`).all() as Array<{
          term: string;
        }>
      )
        .map((r) => r.term)
        .join(' '),
      commonestWords: (
        db.prepare(`SELECT term FROM products_terms_g${g} ORDER BY docs DESC LIMIT ${SEARCH_MAX_WORDS}`).all() as Array<{ term: string }>
      ).map((r) => r.term),
    };
  } finally {
    db.close();
  }
}
