// Granting and revoking roles. The first admin is made with the CLI (`npm run admin -- grant
// <email>`), which writes here on the server's own event store; sessions carry roles, so the
// user's sessions end and the next sign-in picks the change up.
import type { Role } from '@eventide/kernel/models/principal.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { accountCommands } from '../account/decide.ts';
import type { Caller } from '../caller.ts';

export function roles(store: EventStore, sessions: SessionStore) {
  const runAccount = accountCommands(store);
  /** Whether anything changed. */
  return async function setRole(userId: string, role: Role, granted: boolean, caller: Pick<Caller, 'metadata'>): Promise<boolean> {
    const { changed } = await runAccount(userId, { type: 'SetRole', role, granted }, { metadata: caller.metadata });
    if (changed) await sessions.destroyUser(userId);
    return changed;
  };
}
