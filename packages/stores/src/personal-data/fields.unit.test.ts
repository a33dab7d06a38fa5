import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openFields, sealFields } from './fields.ts';
import { sealedSubjects, subjectOf } from '@eventide/kernel/events/personal-fields.ts';
import { isSealed } from '@eventide/kernel/events/personal-fields.ts';

const key = createSecretKey(randomBytes(32));

describe('personal fields', () => {
  it('seals the listed fields that are present, nested ones included, and leaves the rest and the input alone', () => {
    const data = { userId: 'u1', changes: { name: 'Ada' } };
    const sealed = sealFields('user:updated', data, 'u1', key);
    const fields = sealed as { userId: string; changes: { name: unknown; email?: unknown } };
    expect(data).toEqual({ userId: 'u1', changes: { name: 'Ada' } });
    expect(fields.userId).toBe('u1');
    expect(isSealed(fields.changes.name)).toBe(true);
    expect('email' in fields.changes).toBe(false);
    expect(sealedSubjects('user:updated', sealed)).toEqual(['u1']);
    expect(sealFields('product:created', { name: 'Kettle' }, 'u1', key)).toEqual({ name: 'Kettle' });
  });

  it('opens with the key, and reads null, marked erased, without it', () => {
    const sealed = sealFields('user:created', { userId: 'u1', name: 'Ada', email: 'ada@example.com' }, 'u1', key);
    expect(openFields('user:created', sealed, () => key)).toEqual({
      data: { userId: 'u1', name: 'Ada', email: 'ada@example.com' },
      erased: false,
    });
    expect(openFields('user:created', sealed, () => undefined)).toEqual({ data: { userId: 'u1', name: null, email: null }, erased: true });
    const other = createSecretKey(randomBytes(32));
    expect(openFields('user:created', sealed, () => other).erased).toBe(true);
    // Plaintext from before sealing reads as it is.
    expect(openFields('user:created', { userId: 'u1', name: 'Ada', email: 'a@b.c' }, () => undefined).erased).toBe(false);
  });

  it('finds the person a stream is about', () => {
    expect(subjectOf('user-123')).toBe('123');
    expect(subjectOf('account-123')).toBe('123');
    expect(subjectOf('product-123')).toBeUndefined();
    expect(subjectOf('email-abc')).toBeUndefined();
  });
});
