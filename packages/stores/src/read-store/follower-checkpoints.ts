// Where each follower of the log keeps its checkpoint (kernel/events/followers.ts): the projector
// its generation's, in the read models' own writes; the publisher and the forgetter theirs beside
// them (ReadStore.loadCheckpoint), which no rebuild resets. Named once, for the followers that move
// them and the operator's console that shows how far each has got.
import type { FollowerName } from '@eventide/kernel/events/followers.ts';
import { READ_MODELS_CHECKPOINT } from './port.ts';

export const PUBLISHER_CHECKPOINT = 'event-bus-publisher';
export const FORGETTER_CHECKPOINT = 'forgetter';
export const DEADLINES_CHECKPOINT = 'deadlines';
export const WEBHOOKS_CHECKPOINT = 'webhooks';

/**
 * The publisher keeps one per kind of bus, so that a move from the in-process bus to Kafka
 * publishes the whole log to Kafka; Kafka's keeps the name it always had.
 */
export function publisherCheckpoint(busKind: string): string {
  return busKind === 'kafka' ? PUBLISHER_CHECKPOINT : `${PUBLISHER_CHECKPOINT}:${busKind}`;
}

/** A follower's checkpoint, with the kind of bus the publisher publishes on. */
export function followerCheckpoint(follower: FollowerName, busKind: string): string {
  switch (follower) {
    case 'projector':
      return READ_MODELS_CHECKPOINT;
    case 'publisher':
      return publisherCheckpoint(busKind);
    case 'forgetter':
      return FORGETTER_CHECKPOINT;
    case 'deadlines':
      return DEADLINES_CHECKPOINT;
    case 'webhooks':
      return WEBHOOKS_CHECKPOINT;
  }
}
