// Comparing two versions: the marked-up text reads as the later one when the removals are left out,
// and as the earlier one when the additions are.
import { describe, expect, it } from 'vitest';
import { compareTexts } from './compare.ts';

const read = (changes: ReturnType<typeof compareTexts>, without: 'added' | 'removed') =>
  changes
    .filter((c) => c.kind !== without)
    .map((c) => c.text)
    .join('');

describe('comparing two versions of a text', () => {
  it('marks what was added and removed, and keeps what stayed', () => {
    const changes = compareTexts('The cat sat on the mat.', 'The black cat sat on a mat!');
    expect(read(changes, 'removed')).toBe('The black cat sat on a mat!');
    expect(read(changes, 'added')).toBe('The cat sat on the mat.');
    expect(changes.filter((c) => c.kind === 'added').map((c) => c.text)).toContain('black ');
  });

  it('says an unchanged text is all the same, and an emptied one all removed', () => {
    expect(compareTexts('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
    expect(compareTexts('gone', '')).toEqual([{ kind: 'removed', text: 'gone' }]);
    expect(compareTexts('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
  });
});
