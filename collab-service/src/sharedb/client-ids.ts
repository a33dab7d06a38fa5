// Client ids that carry proof of their user. ShareDB lets a reconnecting client name its old id
// (in the handshake, and as the `src` of ops it resubmits) so that a resubmitted op is applied
// once. Taken as given, that would let anyone pass off ops or presence as another client's, and
// even make a victim's genuine op look already applied. An id here is a nonce and an HMAC of the
// user and nonce: only ids minted for the same user are accepted back, across restarts too.
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

export interface ClientIds {
  mint(userId: string): string;
  belongsTo(clientId: unknown, userId: string): boolean;
}

export function clientIds(secret: string): ClientIds {
  // Imported once: given the secret itself, createHmac imports it again on every call.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const mac = (userId: string, nonce: string) =>
    createHmac('sha256', key).update(`collab-client\n${userId}\n${nonce}`).digest('base64url').slice(0, 22);
  return {
    mint(userId) {
      const nonce = randomBytes(12).toString('base64url');
      return `${nonce}.${mac(userId, nonce)}`;
    },
    belongsTo(clientId, userId) {
      if (typeof clientId !== 'string' || clientId.length > 64) return false;
      const [nonce, given, ...rest] = clientId.split('.');
      if (!nonce || !given || rest.length > 0) return false;
      const expected = Buffer.from(mac(userId, nonce));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
