// Query planning without a store: which words are completed or corrected, and at what cost.
import { describe, expect, it } from 'vitest';
import {
  deletionVariants,
  ftsQuery,
  isOneEditApart,
  MAX_TYPO_LENGTH,
  oneEditAway,
  planQuery,
  type Vocabulary,
  words,
} from './search-terms.ts';

/** A vocabulary of name words; `held` are the words some product holds as typed. */
function vocabulary(names: string[], held: string[] = names) {
  const asked: string[][] = [];
  const vocab: Vocabulary = {
    async occurs(term, prefix) {
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
  return { vocab, asked };
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

  it('does not look for typos of words too short or too long to forgive', async () => {
    const { vocab, asked } = vocabulary(['teapot']);
    await planQuery('tepot', vocab);
    expect(asked).toHaveLength(1);
    await planQuery(`tea ${'x'.repeat(MAX_TYPO_LENGTH + 1)} pot`, vocab);
    await planQuery('tepo pot', vocab);
    expect(asked).toHaveLength(1);
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
