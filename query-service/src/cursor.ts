// Opaque, tamper-evident cursors: the position in a list (a document's seq, or an ordered list's
// keys and seq), signed with HMAC-SHA256 under the service's secret. A client cannot read one, make
// one, or change one.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { problems } from '@eventide/contract/problems.ts';

const VERSION = 1;
/**
 * The longest cursor taken, a bound on the work a forged one costs: a cursor holds its list's name
 * (a category has up to 100 characters) and, in a list ordered by name, a product's name (up to
 * 200), each up to four bytes a character in UTF-8, and base64 makes four characters of three bytes.
 */
const MAX_LENGTH = 4096;
const refusal = (field: string) => problems.invalidField(field, 'is not a cursor this service gave out; start again from the first page');
/** Cursors kept once signed: a few hundred kilobytes at most. */
const ENCODED_KEPT = 4096;

/** A position in an ordered list: its keys' values, then a seq. */
export type KeyedPosition = ReadonlyArray<string | number>;

export interface Cursors {
  encode(list: string, position: number | KeyedPosition): string;
  /** The seq a cursor continues from, or a 400 naming `field` when it is garbled or forged. */
  decode(list: string, token: string, field: string): number;
  /** The keys and seq a cursor of an ordered list continues from, or a 400 naming `field`. */
  decodeKeyed(list: string, token: string, field: string): KeyedPosition;
}

const isKeyedPosition = (value: unknown): value is KeyedPosition =>
  Array.isArray(value) &&
  value.length > 0 &&
  Number.isSafeInteger(value[value.length - 1]) &&
  value.every((part) => typeof part === 'string' || Number.isSafeInteger(part));

export function cursors(secret: Buffer): Cursors {
  // Imported once: given the raw secret, createHmac imports the key again on every call.
  const key = createSecretKey(secret);
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16);
  // A cursor is a pure function of its list and position, and most pages asked for are the same few
  // (the newest), so each is signed once: the HMAC was a twentieth of a first page's CPU time.
  const encoded = new Map<string, string>();
  /** The position a cursor of `list` holds, checked for its signature only. */
  function positionOf(list: string, token: string, field: string): unknown {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined || token.length > MAX_LENGTH) throw refusal(field);
    const payload = Buffer.from(body, 'base64url').toString();
    const expected = sign(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refusal(field);
    const parsed: unknown = JSON.parse(payload);
    if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== VERSION || parsed[1] !== list) throw refusal(field);
    return parsed[2];
  }
  return {
    encode(list, position) {
      const memo = `${list}\n${JSON.stringify(position)}`;
      let token = encoded.get(memo);
      if (token === undefined) {
        // The list's name is signed too: a cursor of one list is refused by another.
        const payload = JSON.stringify([VERSION, list, position]);
        token = `${Buffer.from(payload).toString('base64url')}.${sign(payload).toString('base64url')}`;
        if (encoded.size >= ENCODED_KEPT) encoded.clear();
        encoded.set(memo, token);
      }
      return token;
    },
    decode(list, token, field) {
      const position = positionOf(list, token, field);
      if (!Number.isSafeInteger(position)) throw refusal(field);
      return position as number;
    },
    decodeKeyed(list, token, field) {
      const position = positionOf(list, token, field);
      if (!isKeyedPosition(position)) throw refusal(field);
      return position;
    },
  };
}
