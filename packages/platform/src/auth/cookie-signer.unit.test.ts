import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CookieSigner } from './cookie-signer.ts';

describe('CookieSigner', () => {
  it('signs as Keygrip does (HMAC-SHA1, base64url) with the newest key, and finds which key signed', () => {
    const signer = new CookieSigner(['new key', 'old key']);
    const data = 'eventide.sid=abc';
    expect(signer.sign(data)).toBe(createHmac('sha1', 'new key').update(data).digest('base64url'));
    expect(signer.index(data, signer.sign(data))).toBe(0);
    expect(signer.index(data, createHmac('sha1', 'old key').update(data).digest('base64url'))).toBe(1);
    expect(signer.verify(data, createHmac('sha1', 'other').update(data).digest('base64url'))).toBe(false);
    expect(signer.index(data, 'short')).toBe(-1);
    expect(signer.index('eventide.sid=abd', signer.sign(data))).toBe(-1);
  });
});
