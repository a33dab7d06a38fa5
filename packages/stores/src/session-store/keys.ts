// Store keys are SHA-256 of the secret a client holds, so reading the store does not give
// anyone a working session cookie or flow.
import { createHash } from 'node:crypto';
import type { SessionStore } from './port.ts';

/** The key a store holds for the secret a client holds (a session id from its cookie). */
export const storeKeyOf = (key: string) => createHash('sha256').update(key).digest('base64url');
const hash = storeKeyOf;

export function hashedKeys(store: SessionStore): SessionStore {
  return {
    get: (key) => store.get(hash(key)),
    set: (key, record, ttlMs) => store.set(hash(key), record, ttlMs),
    destroy: (key) => store.destroy(hash(key)),
    take: (key) => store.take(hash(key)),
    destroyUser: (userId) => store.destroyUser(userId),
    close: () => store.close(),
  };
}
