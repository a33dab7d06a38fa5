// Makes sure every deleted user is forgotten (docs/privacy.md). The command that deletes a user
// destroys their key right after the deletion commits; a process that dies in between leaves the
// key in place. This follower, from a checkpoint of its own, destroys the key of every user whose
// `user:deleted` it meets, so the forgetting happens at least once whatever died when. Forgetting
// twice is harmless.
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { KeyStore } from '@eventide/shared/key-store/port.ts';
import type { Logger } from '@eventide/shared/log.ts';
import { batches } from './batches.ts';
import type { Checkpoints } from './publisher.ts';
import { runResilient } from './resilient.ts';

export const FORGETTER_CHECKPOINT = 'forgetter';
const BATCH = 500;

export interface Forgetter {
  position(): number;
  stop(): Promise<void>;
}

export function startForgetter(options: { eventStore: EventStore; keys: KeyStore; checkpoints: Checkpoints; log: Logger }): Forgetter {
  const { eventStore, keys, checkpoints, log } = options;
  const controller = new AbortController();
  let position = 0;

  async function follow(): Promise<void> {
    position = await checkpoints.loadCheckpoint(FORGETTER_CHECKPOINT);
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    for await (const batch of batches(eventStore.subscribeToAll({ after: position, signal }), BATCH, () => session.abort())) {
      for (const event of batch) {
        if (event.type !== 'user:deleted') continue;
        const userId = (event.data as { userId: string }).userId;
        if ((await keys.forget(userId)) === 'forgotten') log.info({ userId }, 'forgot a deleted user whose key was still there');
      }
      const last = batch[batch.length - 1]!.position;
      await checkpoints.saveCheckpoint(FORGETTER_CHECKPOINT, last);
      position = last;
    }
  }

  const running = runResilient('forgetter', controller.signal, log, follow);
  return {
    position: () => position,
    async stop() {
      controller.abort();
      await running;
    },
  };
}
