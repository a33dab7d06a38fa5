// Opaque, tamper-evident cursors: the position in a list (a document's seq), signed with
// HMAC-SHA256 under the service's secret. A client cannot read one, make one, or change one.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { problems } from '@eventide/contract/problems.ts';

const VERSION = 1;
/** Cursors kept once signed: a few hundred kilobytes at most. */
const ENCODED_KEPT = 4096;

export interface Cursors {
  encode(list: string, seq: number): string;
  /** The seq a cursor continues from, or a 400 naming `field` when it is garbled or forged. */
  decode(list: string, token: string, field: string): number;
}

export function cursors(secret: Buffer): Cursors {
  // Imported once: given the raw secret, createHmac imports the key again on every call.
  const key = createSecretKey(secret);
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16);
  // A cursor is a pure function of its list and position, and most pages asked for are the same few
  // (the newest), so each is signed once: the HMAC was a twentieth of a first page's CPU time.
  const encoded = new Map<string, string>();
  return {
    encode(list, seq) {
      const memo = `${list}\n${seq}`;
      let token = encoded.get(memo);
      if (token === undefined) {
        // The list's name is signed too: a cursor of one list is refused by another.
        const payload = JSON.stringify([VERSION, list, seq]);
        token = `${Buffer.from(payload).toString('base64url')}.${sign(payload).toString('base64url')}`;
        if (encoded.size >= ENCODED_KEPT) encoded.clear();
        encoded.set(memo, token);
      }
      return token;
    },
    decode(list, token, field) {
      const refuse = () => problems.invalidField(field, 'is not a cursor this service gave out; start again from the first page');
      const [body, mac, extra] = token.split('.');
      if (!body || !mac || extra !== undefined || token.length > 200) throw refuse();
      const payload = Buffer.from(body, 'base64url').toString();
      const expected = sign(payload);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
      const parsed: unknown = JSON.parse(payload);
      if (!Array.isArray(parsed) || parsed[0] !== VERSION || parsed[1] !== list || !Number.isSafeInteger(parsed[2])) throw refuse();
      return parsed[2] as number;
    },
  };
}
