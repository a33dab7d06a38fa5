// Erasing a user, as the admin command line does it (`npm run admin -- erase`): the user is
// deleted if they are not yet, their sessions end, and their key is destroyed, so that what the
// events said of them reads as null from then on (docs/privacy.md). Harmless to repeat; it also
// forgets a user who was deleted before deleting meant forgetting.
import type { SessionStore } from '@eventide/shared/auth/session-store/port.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { newId } from '@eventide/shared/ids.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import { load } from '../handle.ts';
import { userCommands } from './commands.ts';
import { userAggregate } from './decide.ts';

export type Erasure = 'erased' | 'already-erased' | 'unknown';

export async function eraseUser(
  deps: { store: EventStore; keys: KeyStore; sessions: SessionStore | undefined },
  userId: string,
  by: string,
): Promise<Erasure> {
  const { state } = await load(deps.store, userAggregate, userId);
  if (state.status === 'absent') return 'unknown';
  if (state.status === 'active') {
    await userCommands(deps.store, deps.keys)(
      userId,
      { type: 'DeleteUser' },
      { metadata: { correlationId: newId(), actor: { type: 'system', name: by } } },
    );
  }
  await deps.sessions?.destroyUser(userId);
  const forgotten = await deps.keys.forget(userId);
  return state.status === 'active' || forgotten === 'forgotten' ? 'erased' : 'already-erased';
}
