// Makes sure every deleted user is forgotten (docs/privacy.md). The command that deletes a user
// destroys their key right after the deletion commits; a process that dies in between leaves the
// key in place. This follower, from a checkpoint of its own, destroys the key of every user whose
// `user:deleted` it meets, so the forgetting happens at least once whatever died when. Forgetting
// twice is harmless.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import { FORGETTER_CHECKPOINT } from '@eventide/stores/read-store/follower-checkpoints.ts';
import { startFollower, type Checkpoints, type Follower } from '@eventide/runtime/followers/follower.ts';

export type Forgetter = Follower;

export function startForgetter(options: {
  eventStore: EventStore;
  keys: KeyStore;
  checkpoints: Checkpoints;
  parked: ParkedEvents;
  log: Logger;
}): Forgetter {
  const { eventStore, keys, checkpoints, parked, log } = options;
  return startFollower({
    name: 'forgetter',
    parked,
    probe: () => keys.lookup(['readiness-probe']),
    types: ['user:deleted'],
    eventStore,
    checkpoints,
    log,
    checkpoint: FORGETTER_CHECKPOINT,
    // A deletion holds nothing personal: no key lookup is needed to read it.
    keepSealed: true,
    async handle(batch) {
      for (const event of batch) {
        if (event.type !== 'user:deleted') continue;
        const userId = (event.data as { userId: string }).userId;
        if ((await keys.forget(userId)) === 'forgotten') log.info({ userId }, 'forgot a deleted user whose key was still there');
      }
    },
  });
}
