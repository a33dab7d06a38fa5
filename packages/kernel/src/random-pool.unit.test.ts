import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from './random-pool.ts';

describe('pooledRandomBytes', () => {
  it('gives draws of the size asked that no other draw shares, across refills of the pool', () => {
    // 4 KiB serve 341 draws of 12 bytes: this crosses several refills, and the odd size leaves a
    // remainder each time.
    const draws = Array.from({ length: 2000 }, () => pooledRandomBytes(12).toString('hex'));
    expect(new Set(draws).size).toBe(draws.length);
    for (const draw of draws) expect(draw).toHaveLength(24);
    expect(pooledRandomBytes(1000)).toHaveLength(1000);
  });

  it('leaves each draw as it was given while the pool is wiped and drawn again', () => {
    const key = pooledRandomBytes(32);
    const given = Buffer.from(key);
    expect(given.equals(Buffer.alloc(32))).toBe(false);
    for (let i = 0; i < 300; i++) pooledRandomBytes(32); // two refills and more
    expect(key).toEqual(given);
  });
});
