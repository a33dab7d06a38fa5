import { describe, expect, it } from 'vitest';
import { v5 as uuidv5 } from 'uuid';
import { derivedId, isUuid, newId } from './ids.ts';

describe('newId', () => {
  it('gives distinct v7 ids carrying the current millisecond, across refills of its random pool', () => {
    const before = Date.now();
    // 4 KiB of random bytes serve 256 ids: this crosses several refills.
    const ids = Array.from({ length: 2000 }, newId);
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      const millisecond = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
      expect(millisecond).toBeGreaterThanOrEqual(before);
      expect(millisecond).toBeLessThanOrEqual(after);
    }
  });

  it('does not repeat the random part of an earlier id within the same millisecond', () => {
    const tails = Array.from({ length: 1000 }, () => newId().slice(15));
    expect(new Set(tails).size).toBe(tails.length);
  });
});

describe('derivedId', () => {
  it('gives the same v5 id for the same parts, and another for other parts', () => {
    expect(derivedId('a', 'b')).toBe(derivedId('a', 'b'));
    expect(derivedId('a', 'b')).not.toBe(derivedId('ab'));
    expect(derivedId('a', 'b')[14]).toBe('5');
  });

  it("is uuid's own v5 of the parts under our namespace, whatever they hold", () => {
    const namespace = '7d6c1f1e-4b53-4a4e-9a3c-2f0c8a9b6e11';
    for (const parts of [[], [''], ['a', 'b'], ['zoë', '𝔘𝔫𝔦'], ['x'.repeat(500), '\u0000']]) {
      expect(derivedId(...parts)).toBe(uuidv5(JSON.stringify(parts), namespace));
    }
  });

  it('gives the ids it always gave: a retry after an upgrade must find the events of the first try', () => {
    expect(derivedId('claim', '0198a6b0-1234-7abc-8def-0123456789ab', 'email-ünï')).toBe('957f490e-f98a-5337-8b8a-67159733e68a');
    expect(derivedId('command', 'x')).toBe('149fbc26-589d-5010-809a-db0647dcdf45');
  });
});
