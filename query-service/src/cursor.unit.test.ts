// Cursors: a position signed for its list, the same token each time it is asked for, refused when
// changed or presented to another list.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { cursors } from './cursor.ts';

const signer = cursors(randomBytes(32));

it('gives the same token for a position each time, and reads the position back', () => {
  fc.assert(
    fc.property(fc.constantFrom('products', 'orders'), fc.nat(), (list, seq) => {
      const token = signer.encode(list, seq);
      expect(signer.encode(list, seq)).toBe(token);
      expect(signer.decode(list, token, 'cursor')).toBe(seq);
    }),
  );
});

it('refuses a token of another list, another secret or with a changed position', () => {
  const token = signer.encode('products', 42);
  expect(() => signer.decode('orders', token, 'cursor')).toThrow(/not a cursor this service gave out/);
  expect(() => cursors(randomBytes(32)).decode('products', token, 'after')).toThrow(/not a cursor this service gave out/);
  const [, mac] = token.split('.');
  const forged = `${Buffer.from(JSON.stringify([1, 'products', 43])).toString('base64url')}.${mac}`;
  expect(() => signer.decode('products', forged, 'cursor')).toThrow(/not a cursor this service gave out/);
});

it("reads back an ordered list's keys and seq, and refuses a position of the other kind", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string({ maxLength: 200 }), fc.nat())), fc.nat(), (keys, seq) => {
      const token = signer.encode('products:sort:name', [...keys, seq]);
      expect(signer.decodeKeyed('products:sort:name', token, 'cursor')).toEqual([...keys, seq]);
      expect(() => signer.decode('products:sort:name', token, 'cursor')).toThrow(/not a cursor this service gave out/);
    }),
  );
  expect(() => signer.decodeKeyed('products', signer.encode('products', 7), 'cursor')).toThrow(/not a cursor this service gave out/);
});
