// A session store that tells the revocation feed whenever sessions end, so that connections
// opened with them (WebSockets) end too: a destroyed record (sign-out, a sign-in that replaces
// the browser's session, a timeout koa-session noticed) and all of a user's (destroyUser).
import type { RevocationFeed } from '../revocations/port.ts';
import type { SessionStore } from './port.ts';

export function revokingSessions(store: SessionStore, feed: RevocationFeed): SessionStore {
  return {
    get: (key) => store.get(key),
    set: (key, record, ttlMs) => store.set(key, record, ttlMs),
    take: (key) => store.take(key),
    async destroy(key) {
      await store.destroy(key);
      await feed.publish({ type: 'session', session: key });
    },
    async destroyUser(userId) {
      const ended = await store.destroyUser(userId);
      await feed.publish({ type: 'user', userId });
      return ended;
    },
    close: () => store.close(),
  };
}
