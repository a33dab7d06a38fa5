import { describe, expect, it } from 'vitest';
import { CURRENT, hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('hashes at the current parameters with a fresh salt, and verifies', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword('correct horse battery stapler', a)).toEqual({ ok: false, needsRehash: false });
  });

  it('asks for a rehash of a hash made under older parameters, only when the password is right', async () => {
    const old = await hashPassword('passphrase one', { logN: 10, r: 8, p: 1 });
    expect(await verifyPassword('passphrase one', old, CURRENT)).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword('passphrase two', old, CURRENT)).toEqual({ ok: false, needsRehash: false });
  });

  it('treats the same text in another Unicode form as the same password', async () => {
    const composed = await hashPassword('pässwort', { logN: 10, r: 8, p: 1 });
    expect((await verifyPassword('pa\u0308sswort', composed, { logN: 10, r: 8, p: 1 })).ok).toBe(true);
  });

  it('refuses a malformed stored hash and an oversized password without hashing', async () => {
    expect(await verifyPassword('x', 'not a hash')).toEqual({ ok: false, needsRehash: false });
    const hash = await hashPassword('short enough', { logN: 10, r: 8, p: 1 });
    expect((await verifyPassword('a'.repeat(2000), hash)).ok).toBe(false);
  });
});
