// Query planning without a store: which words are completed or corrected, and at what cost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@eventide/kernel/events/recorded.ts';
import {
  deletionVariants,
  ftsQuery,
  holdsEvery,
  isOneEditApart,
  MAX_TYPO_LENGTH,
  oneEditAway,
  planQuery,
  type QueryWord,
  relevanceFor,
  splitByBudget,
  type Vocabulary,
} from './planner.ts';
import { words } from '@eventide/kernel/search/words.ts';

/** A vocabulary of name words; `held` are the words some product holds as typed. */
function vocabulary(names: string[], held: string[] = names) {
  const asked: string[][] = [];
  const looked: string[] = [];
  const vocab: Vocabulary = {
    async occurs(term, prefix) {
      looked.push(term);
      return held.some((w) => w === term || (prefix && w.startsWith(term)));
    },
    async startingWith(prefix, limit) {
      return names.filter((w) => w.startsWith(prefix)).slice(0, limit);
    },
    async typosOf(word, limit) {
      asked.push([word]);
      return names.filter((w) => isOneEditApart(w, word)).slice(0, limit);
    },
  };
  return { vocab, asked, looked };
}

describe('oneEditAway', () => {
  it('has every deletion, insertion, replacement and swap of neighbours, and not the word itself', () => {
    const edits = oneEditAway('ketle');
    expect(edits).toEqual(expect.arrayContaining(['kettle', 'kele', 'kelte', 'kutle', 'ketlex']));
    expect(edits).not.toContain('ketle');
    expect(new Set(edits).size).toBe(edits.length);
  });
});

describe('deletionVariants and isOneEditApart', () => {
  it('find exactly the words oneEditAway makes, among any words', () => {
    const word = 'ketle';
    const vocabulary = ['kettle', 'kele', 'kelte', 'kutle', 'ketlex', 'ketle', 'kettles', 'ktlee', 'elkte', 'tekle', 'kzzle', 'k'];
    const variants = new Set(deletionVariants(word));
    const byVariants = vocabulary.filter((w) => deletionVariants(w).some((v) => variants.has(v)) && isOneEditApart(w, word));
    const byEdits = vocabulary.filter((w) => oneEditAway(word).includes(w));
    expect(byVariants).toEqual(byEdits);
    expect(byVariants).toEqual(['kettle', 'kele', 'kelte', 'kutle', 'ketlex']);
  });

  it('tell one edit from two, whatever the letters', () => {
    for (const word of ['teapot', 'chair', 'aabba', 'ééa']) {
      const near = new Set(oneEditAway(word));
      for (const w of near) expect(isOneEditApart(w, word), `${w} / ${word}`).toBe(true);
      // Two edits away: one edit more on every 20th of the near ones.
      const far = [...near].filter((_, i) => i % 20 === 0).flatMap((w) => oneEditAway(w));
      for (const w of far.filter((w) => w !== word && !near.has(w))) expect(isOneEditApart(w, word), `${w} / ${word}`).toBe(false);
    }
  });
});

describe('planQuery', () => {
  it('completes and corrects only words that no product holds', async () => {
    const { vocab } = vocabulary(['electric', 'kettle', 'cable', 'table']);
    expect(await planQuery('elec ketle', vocab)).toEqual([
      { term: 'elec', prefix: false, completions: ['electric'], typos: [] },
      { term: 'ketle', prefix: true, completions: [], typos: ['kettle'] },
    ]);
    expect(await planQuery('cable', vocab)).toEqual([{ term: 'cable', prefix: true, completions: [], typos: [] }]);
  });

  it('says when a word stands for nothing the vocabulary holds, so that no index is asked', async () => {
    const { vocab } = vocabulary(['electric', 'kettle']);
    expect(await planQuery('qqxzv', vocab)).toEqual([{ term: 'qqxzv', prefix: true, completions: [], typos: [], standsForNothing: true }]);
    expect(await planQuery('qqxzv kett', vocab)).toEqual([
      { term: 'qqxzv', prefix: false, completions: [], typos: [], standsForNothing: true },
      { term: 'kett', prefix: true, completions: [], typos: [] },
    ]);
    // Held, completed, corrected, or not asked about (a short last word): it may match.
    for (const text of ['kettle', 'elec kettle', 'ketle', 'qqx']) {
      expect((await planQuery(text, vocab)).some((w) => w.standsForNothing)).toBe(false);
    }
  });

  it('does not look for typos of words too short or too long to forgive', async () => {
    const { vocab, asked } = vocabulary(['teapot']);
    await planQuery('tepot', vocab);
    expect(asked).toHaveLength(1);
    await planQuery(`tea ${'x'.repeat(MAX_TYPO_LENGTH + 1)} pot`, vocab);
    await planQuery('tepo pot', vocab);
    expect(asked).toHaveLength(1);
  });

  it('asks nothing of the vocabulary about a last word it could neither complete nor correct', async () => {
    const { vocab, looked } = vocabulary(['teapot', 'thermos']);
    expect(await planQuery('tepot the', vocab)).toEqual([
      { term: 'tepot', prefix: false, completions: [], typos: ['teapot'] },
      { term: 'the', prefix: true, completions: [], typos: [] },
    ]);
    await planQuery('tea thermso', vocab);
    expect(looked).toEqual(['tepot', 'tea', 'thermso']);
  });
});

describe('ftsQuery', () => {
  it('names a word once when it is both a completion and a typo away', async () => {
    const { vocab } = vocabulary(['granite']);
    expect(ftsQuery(await planQuery('granit tabl', vocab))).toBe('("granit" OR "granite") AND "tabl"*');
  });
});

describe('words', () => {
  it('lowers case and drops accents, for ASCII and for the rest alike', () => {
    expect(words('Crème BRÛLÉE, 2-Pack')).toEqual(['creme', 'brulee', '2', 'pack']);
    expect(words('Plain ASCII: kettle-42')).toEqual(['plain', 'ascii', 'kettle', '42']);
  });
});

describe('relevanceFor', () => {
  /** The rule as docs/api.md states it, applied to every word of the text: what the scan must equal. */
  function byEveryWord(fields: Record<string, JsonValue>, query: QueryWord[]): number {
    const weight = (word: string, q: QueryWord) => {
      if (word === q.term) return 1.2;
      if ((q.prefix && word.startsWith(q.term)) || q.completions.includes(word)) return 1;
      return q.typos.includes(word) ? 0.5 : 0;
    };
    const score = (text: JsonValue | undefined) =>
      words(String(text ?? '')).reduce((sum, word) => sum + query.reduce((s, q) => s + weight(word, q), 0), 0);
    return 5 * score(fields.name) + score(fields.description);
  }

  // Few letters, so that words meet, start one another and differ by one edit often; accents,
  // capitals, digits, punctuation, letters no normalisation makes ASCII and one outside the BMP,
  // which the split must treat alike.
  const letter = fc.constantFrom(...'abcékK1 ,-.ÉÜßø\u{10400}'.split(/(?:)/u));
  const text = fc.array(letter, { maxLength: 40 }).map((cs) => cs.join(''));
  const word = fc
    .array(fc.constantFrom(...'abcek1éø\u{10428}'.split(/(?:)/u)), { minLength: 1, maxLength: 5 })
    .map((cs) => words(cs.join(''))[0] ?? 'a');
  const queryWord = fc.record({
    term: word,
    prefix: fc.boolean(),
    completions: fc.array(word, { maxLength: 3 }),
    typos: fc.array(word, { maxLength: 3 }),
  });

  it('scores as weighing every word of the name and the description does', () => {
    fc.assert(
      fc.property(fc.array(queryWord, { minLength: 1, maxLength: 4 }), text, text, (query, name, description) => {
        expect(relevanceFor(query)({ name, description })).toBeCloseTo(byEveryWord({ name, description }, query), 9);
      }),
      { numRuns: 1000, seed: 20261124 },
    );
  });

  it('scores ASCII text, which it searches another way, as weighing every word does', () => {
    // Query words that start one another ("ab", "abc") and meet inside words, in texts long enough
    // to hold several of them: nothing outside ASCII, so no text takes the Unicode pattern's way.
    const asciiText = fc.array(fc.constantFrom(...'abcekK1 ,-.'), { maxLength: 60 }).map((cs) => cs.join(''));
    const asciiWord = fc.array(fc.constantFrom(...'abck1'), { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));
    const asciiQueryWord = fc.record({
      term: asciiWord,
      prefix: fc.boolean(),
      completions: fc.array(asciiWord, { maxLength: 3 }),
      typos: fc.array(asciiWord, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(asciiQueryWord, { minLength: 1, maxLength: 4 }), asciiText, asciiText, (query, name, description) => {
        expect(relevanceFor(query)({ name, description })).toBeCloseTo(byEveryWord({ name, description }, query), 9);
      }),
      { numRuns: 2000, seed: 20261125 },
    );
  });

  it('scores a product again from the start, however many it scored before', () => {
    const relevance = relevanceFor([{ term: 'kettle', prefix: false, completions: [], typos: [] }]);
    const product = { name: 'Kettle', description: 'A kettle, the kettle' };
    expect(relevance(product)).toBeCloseTo(5 * 1.2 + 2 * 1.2, 9);
    expect(relevance(product)).toBeCloseTo(5 * 1.2 + 2 * 1.2, 9);
    expect(relevance({ name: 'Mug', description: '' })).toBe(0);
  });
});

describe('splitByBudget', () => {
  it('gives the engine the rarest words while their lists fit the budget, at least one, and leaves the rest to be checked', () => {
    const query = ['the', 'ceramic', 'of', 'aluminum'];
    expect(splitByBudget(query, [700, 50, 500, 60], 200)).toEqual({ intersected: ['ceramic', 'aluminum'], checked: ['of', 'the'] });
    expect(splitByBudget(query, [700, 50, 500, 60], 2000)).toEqual({ intersected: ['ceramic', 'aluminum', 'of', 'the'], checked: [] });
    // Even a word whose list alone is over the budget: the engine reads it only as far as its newest matches.
    expect(splitByBudget(['the', 'of'], [700, 500], 100)).toEqual({ intersected: ['of'], checked: ['the'] });
    expect(splitByBudget(['kettle', 'co'], [40, Number.POSITIVE_INFINITY], 100)).toEqual({ intersected: ['kettle'], checked: ['co'] });
  });
});

describe('holdsEvery', () => {
  const word = (term: string, more: Partial<QueryWord> = {}): QueryWord => ({ term, prefix: false, completions: [], typos: [], ...more });

  it('finds a whole word, in any case, and not a word it only starts', () => {
    const holds = holdsEvery([word('kettle')]);
    expect(holds('Copper KETTLE, heavy')).toBe(true);
    expect(holds('kettles')).toBe(false);
    expect(holds('teakettle')).toBe(false);
    expect(holds('a kettle2go')).toBe(false);
  });

  it('finds the start of a word for a prefix the engine completes, and only the listed words for one the store names', () => {
    expect(holdsEvery([word('ket', { prefix: true })])('Two kettles')).toBe(true);
    expect(holdsEvery([word('ket', { prefix: true })])('a basket')).toBe(false);
    const named = holdsEvery([word('kett', { prefix: true, expansions: ['kettle'] })]);
    expect(named('one kettle')).toBe(true);
    expect(named('kettles')).toBe(false);
  });

  it('finds a completion or a typo in place of the word typed', () => {
    const holds = holdsEvery([word('ketle', { typos: ['kettle'] })]);
    expect(holds('a kettle')).toBe(true);
    expect(holds('a ketle')).toBe(true);
    expect(holdsEvery([word('elec', { completions: ['electric'] })])('Electric kettle')).toBe(true);
  });

  it('holds when every word does, each in its own way', () => {
    const holds = holdsEvery([word('copper'), word('ket', { prefix: true })]);
    expect(holds('Copper kettle')).toBe(true);
    expect(holds('Copper pan')).toBe(false);
    expect(holds('Steel kettle')).toBe(false);
    expect(holds('Cöpper kettle')).toBe(true); // as FTS5 reads it, accents removed
    expect(holdsEvery([word('copper'), word('brulee')])('Copper crème brûlée')).toBe(true);
  });

  it('finds each word in the name or the description, never across the two', () => {
    const holds = holdsEvery([word('copper'), word('kettle')]);
    expect(holds('Copper pan', 'A KETTLE for tea')).toBe(true);
    expect(holds('Copper kettle')).toBe(true);
    expect(holds('Steel pan', 'copper and kettle')).toBe(true);
    expect(holds('Copper pan', 'for tea')).toBe(false);
    expect(holdsEvery([word('ket', { prefix: true })])('Copper', 'tle')).toBe(false);
    expect(holdsEvery([word('creme'), word('copper')])('Crème brûlée', 'in COPPER')).toBe(true);
  });

  it('reads a word from the vocabulary as written, even one with characters a pattern would take as syntax', () => {
    const holds = holdsEvery([word('cpp', { typos: ['c++', 'a.b'] })]);
    expect(holds('The c++ book')).toBe(true);
    expect(holds('The c book')).toBe(false);
    expect(holds('axb')).toBe(false);
  });

  it('reads text with accents and letters beyond ASCII as words() splits it', () => {
    expect(holdsEvery([word('creme')])('Crème brûlée')).toBe(true);
    expect(holdsEvery([word('bru', { prefix: true })])('Crème brûlée')).toBe(true);
    // A letter beyond ASCII is part of the word, not a boundary.
    expect(holdsEvery([word('stra')])('straße')).toBe(false);
    expect(holdsEvery([word('straße')])('Die Straße')).toBe(true);
    expect(holdsEvery([word('kettle')])('überkettle')).toBe(false);
  });
});
