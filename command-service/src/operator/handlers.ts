// The operator's console's two writes (docs/operations.md#the-console): retry parked events once
// their cause is fixed, or skip one, saying why. Each is noted on the parked event for its follower
// to act on between its batches (projector/src/parking.ts), wherever that follower runs, and
// recorded in the log as the operator's action (private events: they never leave the write side).
import { newId } from '@eventide/kernel/ids.ts';
import { FOLLOWERS, type FollowerName } from '@eventide/kernel/events/followers.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import type { Handlers } from '@eventide/platform/http/mount.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { lotOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { Context } from 'koa';
import { metadataOf } from '../http/actor.ts';

export interface OperatorDeps {
  store: EventStore;
  parked: ParkedEvents;
  /** The read models' generation served: the projector's lot is that generation's. */
  activeGeneration(): Promise<number>;
  clock?: () => Date;
}

/** The operator's own stream: their actions on the system, in order. */
export const operatorStream = (userId: string) => `operator-${userId}`;

export function operatorHandlers(deps: OperatorDeps): Pick<Handlers<'command'>, 'retryParked' | 'skipParked'> {
  const clock = deps.clock ?? (() => new Date());

  /** The parked event an operator names: it must be there, and be the first of its stream (the others wait behind it). */
  async function first(follower: FollowerName, position: number) {
    const event = await deps.parked.get(lotOf(follower, await deps.activeGeneration()), position);
    if (!event) throw refuse.notFound(`a parked event of the ${follower} at position ${position}`);
    if (event.behind !== undefined) {
      throw refuse.conflict(`it waits behind the parked event at position ${event.behind} of ${event.streamId}: retry or skip that one`, {
        fields: [{ field: 'position', message: `waits behind position ${event.behind}` }],
      });
    }
    return event;
  }

  async function record(ctx: Context, userId: string, type: string, data: Record<string, unknown>): Promise<void> {
    const metadata = { ...metadataOf(ctx), causationId: newId() };
    await deps.store.append(operatorStream(userId), [{ id: newId(), type, data: data as never, metadata }], { expectedRevision: 'any' });
  }

  return {
    async retryParked({ ctx, body, principal }) {
      if (body.position !== undefined) await first(body.follower!, body.position);
      const generation = await deps.activeGeneration();
      const request = { action: 'retry' as const, by: principal.userId, at: clock().toISOString() };
      let requested = 0;
      for (const follower of body.follower ? [body.follower] : FOLLOWERS) {
        requested += await deps.parked.request(lotOf(follower, generation), body.position ?? 'all', request);
      }
      await record(ctx, principal.userId, 'operator:parked-retried', { ...body, requested });
      ctx.status = 202;
      ctx.body = { requested };
    },

    async skipParked({ ctx, body, principal }) {
      const event = await first(body.follower, body.position);
      const request = { action: 'skip' as const, by: principal.userId, at: clock().toISOString(), reason: body.reason };
      const requested = await deps.parked.request(event.lot, body.position, request);
      await record(ctx, principal.userId, 'operator:parked-skipped', {
        follower: body.follower,
        position: body.position,
        eventId: event.eventId,
        streamId: event.streamId,
        type: event.type,
        reason: body.reason,
      });
      ctx.status = 202;
      ctx.body = { requested };
    },
  };
}
