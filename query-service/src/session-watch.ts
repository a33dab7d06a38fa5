// A stream outlives the request that opened it: the mount checked its session once, at the start.
// Whatever the stream carries must stop when that session ends: at once when it is revoked
// (sign-out, a password or role change, a deleted user, from any process: the revocation feed),
// and at the next check for a timeout, as the collab WebSocket does.
import type { IncomingMessage } from 'node:http';
import { problems } from '@eventide/contract/problems.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { RevocationFeed } from '@eventide/stores/revocations/port.ts';
import { sessionOfUpgrade, type SessionOptions } from '@eventide/platform/auth/session.ts';

export interface SessionWatch {
  sessions: SessionOptions;
  revocations: RevocationFeed;
}

/** How often a stream's session is read again, for the timeouts no revocation announces. */
export const SESSION_CHECK_MS = 15_000;

/**
 * Calls `ended` (once) when the session of `req`, signed in as `userId`, ends. A request whose
 * session has ended already is refused (401). Returns the way to stop watching.
 */
export async function watchSession(
  watch: SessionWatch,
  req: IncomingMessage,
  userId: string,
  ended: () => void,
  log: Logger | undefined,
): Promise<() => void> {
  const session = await sessionOfUpgrade(req, watch.sessions);
  if (session?.user.id !== userId) throw problems.unauthenticated();
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    stop();
    ended();
  };
  const stopListening = watch.revocations.subscribe((revocation) => {
    if (
      (revocation.type === 'session' && revocation.session === session.key) ||
      (revocation.type === 'user' && revocation.userId === userId)
    )
      end();
  });
  const timer = setInterval(() => {
    sessionOfUpgrade(req, watch.sessions).then(
      (now) => now?.user.id !== userId && end(),
      (error: unknown) => log?.warn({ err: error }, 'a stream’s session check failed; the stream stays open'),
    );
  }, SESSION_CHECK_MS);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    stopListening();
  };
  return stop;
}
