// What the operator's console says of the followers of the log (GET /admin/followers): where each
// has got by its checkpoint, how far behind the head of the log, and what it parked, in the lots
// that count now (the projector's of the generation served); and a rebuild's progress. Read from
// the stores, so any process that has them can say it, whichever runs the followers.
import type { FollowersBody } from '@eventide/contract/resources/operator/schemas.ts';
import { FOLLOWERS } from '@eventide/kernel/events/followers.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { lotOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { DeadlineSchedule } from '@eventide/stores/deadlines/port.ts';
import { followerCheckpoint } from '@eventide/stores/read-store/follower-checkpoints.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';

export interface OperatorDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  parked: ParkedEvents;
  /** The pending deadlines (stores/deadlines). */
  deadlines: DeadlineSchedule;
  /** The kind of bus the publisher publishes on: whose checkpoint is its. */
  busKind: string;
}

export async function followersState({ eventStore, readStore, parked, busKind }: OperatorDeps): Promise<FollowersBody> {
  const [head, generation, counts, pending] = await Promise.all([
    eventStore.head(),
    readStore.activeGeneration(),
    parked.counts(),
    readStore.pendingGeneration(),
  ]);
  const followers = await Promise.all(
    FOLLOWERS.map(async (name) => {
      const position =
        name === 'projector'
          ? await readStore.servedCheckpoint(READ_MODELS_CHECKPOINT)
          : await readStore.loadCheckpoint(followerCheckpoint(name, busKind));
      const lot = counts.get(lotOf(name, generation));
      return {
        name,
        ...(name === 'projector' ? { generation } : {}),
        position,
        behind: Math.max(0, head - position),
        parked: lot?.parked ?? 0,
        held: lot?.held ?? 0,
      };
    }),
  );
  const rebuild =
    pending === undefined ? null : { generation: pending, position: await readStore.writer(pending).checkpoint(READ_MODELS_CHECKPOINT) };
  return { head, followers, rebuild };
}
