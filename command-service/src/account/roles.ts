// Granting and revoking roles. The first admin is made with the CLI (`npm run admin -- grant
// <email>`), which writes here on the server's own event store; sessions carry roles, so the
// user's sessions end and the next sign-in picks the change up.
import type { Role } from '@eventide/shared/auth/session.ts';
import type { SessionStore } from '@eventide/shared/auth/session-store/port.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { newId } from '@eventide/shared/ids.ts';
import { accountCommands } from './decide.ts';

export async function setRole(
  store: EventStore,
  sessions: SessionStore | undefined,
  userId: string,
  role: Role,
  granted: boolean,
  by: string,
): Promise<boolean> {
  const { changed } = await accountCommands(store)(
    userId,
    { type: 'SetRole', role, granted },
    { metadata: { correlationId: newId(), actor: { type: 'system', name: by } } },
  );
  if (changed) await sessions?.destroyUser(userId);
  return changed;
}
