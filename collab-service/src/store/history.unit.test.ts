import { describe, expect, it } from 'vitest';
import { firstKept } from './history.ts';

/** The newest ops of a document at version 100 (or `current`), newest first, of these sizes. */
const ops = (...sizes: number[]) => sizes.map((bytes, index) => ({ v: 99 - index, bytes }));

describe('the first version a document keeps', () => {
  it('keeps the newest ops up to the count', () => {
    expect(firstKept(100, ops(10, 10, 10), { ops: 3, bytes: 1000 })).toBe(97);
    const young = [1, 0].map((v) => ({ v, bytes: 10 }));
    expect(firstKept(2, young, { ops: 5, bytes: 1000 })).toBe(0);
  });

  it('never starts before the oldest op still kept', () => {
    expect(firstKept(100, ops(10, 10), { ops: 50, bytes: 1000 })).toBe(98);
  });

  it('keeps fewer when their bytes pass the limit, and the newest op whatever its size', () => {
    expect(firstKept(100, ops(40, 40, 40, 40), { ops: 10, bytes: 100 })).toBe(98);
    expect(firstKept(100, ops(500, 10), { ops: 10, bytes: 100 })).toBe(99);
  });
});
