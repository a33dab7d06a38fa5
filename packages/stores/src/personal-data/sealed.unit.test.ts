import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seal, unseal } from './sealed.ts';
import { isSealed, type Sealed } from '@eventide/kernel/events/personal-fields.ts';

const key = randomBytes(32);

describe('sealed personal values', () => {
  it('opens with the same key, subject and field, and holds no trace of the value', () => {
    const sealed = seal(key, 'user-1', 'email', 'ada@example.com');
    expect(isSealed(sealed)).toBe(true);
    expect(JSON.stringify(sealed)).not.toMatch(/ada|example/);
    expect(unseal(key, sealed, 'email')).toBe('ada@example.com');
    expect(unseal(key, seal(key, 's', 'f', { street: 'Rue 1', n: [1, 2] }), 'f')).toEqual({ street: 'Rue 1', n: [1, 2] });
  });

  it('seals the same value differently each time', () => {
    expect(seal(key, 's', 'name', 'Ada')).not.toEqual(seal(key, 's', 'name', 'Ada'));
  });

  it('does not open with another key, under another field or subject, or with a byte changed', () => {
    const sealed = seal(key, 'user-1', 'name', 'Ada Lovelace');
    expect(() => unseal(randomBytes(32), sealed, 'name')).toThrow();
    expect(() => unseal(key, sealed, 'email')).toThrow();
    const moved: Sealed = { $sealed: { ...sealed.$sealed, subject: 'user-2' } };
    expect(() => unseal(key, moved, 'name')).toThrow();
    const bytes = Buffer.from(sealed.$sealed.data, 'base64url');
    bytes[0]! ^= 1;
    const flipped: Sealed = { $sealed: { ...sealed.$sealed, data: bytes.toString('base64url') } };
    expect(() => unseal(key, flipped, 'name')).toThrow();
  });

  it('tells sealed values from anything else', () => {
    for (const value of ['Ada', null, 3, {}, { $sealed: null }, { $sealed: { v: 2, subject: 's', iv: '', data: '' } }, ['x']]) {
      expect(isSealed(value)).toBe(false);
    }
  });
});
