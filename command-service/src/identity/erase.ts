// Erasing a user, for DELETE /users/{id} and the admin command line alike: the user is deleted
// if they are not yet, their key is destroyed, so that what the events said of them reads as null
// everywhere from then on (docs/privacy.md), and their sessions end. Each step is harmless to
// repeat, and a repeat finishes what an interrupted erasure left: the key is destroyed and the
// sessions ended even when the user was deleted already, or before deleting meant forgetting.
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { isRefusal, type Refusal } from '@eventide/kernel/models/refusal.ts';
import type { UserState } from '@eventide/kernel/models/user/state.ts';
import type { CommandOptions, WriteResult } from '../handle.ts';
import type { UserCommand } from '../user/decide.ts';

export interface EraseDeps {
  keys: KeyStore;
  sessions: SessionStore;
  run(userId: string, command: UserCommand, options: CommandOptions): Promise<WriteResult<UserState>>;
}

export interface Erasure {
  /** The deletion this call made (or a repeat of it answered again); undefined when the user was deleted before. */
  result: WriteResult<UserState> | undefined;
  /** Why there was nothing to delete: the user was deleted before (a refusal in the domain's words). */
  gone: Refusal | undefined;
  /** Whether anything was erased now: the user deleted, or their key destroyed. */
  erased: boolean;
}

export function erasure({ keys, sessions, run }: EraseDeps) {
  /** Refuses a user that never existed (not found); a deleted one is finished, not refused. */
  return async function erase(userId: string, options: CommandOptions): Promise<Erasure> {
    let result: WriteResult<UserState> | undefined;
    let gone: Refusal | undefined;
    try {
      result = await run(userId, { type: 'DeleteUser' }, options);
    } catch (error) {
      if (!isRefusal(error, 'gone')) throw error;
      gone = error;
    }
    const forgotten = await keys.forget(userId);
    await sessions.destroyUser(userId);
    return { result, gone, erased: result !== undefined || forgotten === 'forgotten' };
  };
}
