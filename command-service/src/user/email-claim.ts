// One user per email, enforced by the event store: each normalised address has a claim stream
// (`email-<sha256>`, so the address itself is not in a stream name), appended with the revision
// it was read at. Of two concurrent claims, the store accepts one.
//
// The claim and the user's own event are two appends. If a process dies between them, the
// claim is left pointing at a user who does not hold the address; such a claim counts as free
// once it is older than the grace period, so the address heals without an operator.
import { createHash } from 'node:crypto';
import type { EventMetadata } from '@eventide/shared/events/catalogue.ts';
import { WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '@eventide/shared/event-store/port.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { derivedId } from '@eventide/shared/ids.ts';
import { fold } from '../aggregate.ts';
import { normalizeEmail, userAggregate } from './user.ts';

/** Private events: they never leave the write side. */
export const EMAIL_CLAIMED = 'email:claimed';
export const EMAIL_RELEASED = 'email:released';

/** Long enough for a request in flight to finish its second append. */
export const CLAIM_GRACE_MS = 60_000;
const ATTEMPTS = 3;

export function claimStreamId(email: string): string {
  return `email-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;
}

function claimant(events: RecordedEvent[]): { userId: string; event: RecordedEvent } | undefined {
  const last = events.at(-1);
  if (!last || last.type !== EMAIL_CLAIMED) return undefined;
  return { userId: (last.data as { userId: string }).userId, event: last };
}

export interface EmailClaims {
  /** Claims the address for the user, or throws 409 when another user holds it. */
  claim(email: string, userId: string, commandId: string, metadata: EventMetadata): Promise<void>;
  /** Gives the address up, if this user still holds it. */
  release(email: string, userId: string, commandId: string, metadata: EventMetadata): Promise<void>;
}

export function emailClaims(store: EventStore, now: () => Date = () => new Date()): EmailClaims {
  async function isLive(email: string, holder: { userId: string; event: RecordedEvent }): Promise<boolean> {
    if (now().getTime() - Date.parse(holder.event.time) < CLAIM_GRACE_MS) return true;
    const user = fold(userAggregate, await store.readStream(`user-${holder.userId}`));
    return user.status === 'active' && normalizeEmail(user.email) === normalizeEmail(email);
  }

  return {
    async claim(email, userId, commandId, metadata) {
      const streamId = claimStreamId(email);
      for (let attempt = 1; ; attempt++) {
        const events = await store.readStream(streamId);
        const holder = claimant(events);
        if (holder?.userId === userId) return;
        if (holder && (await isLive(email, holder))) {
          throw problems.conflict('this email address is already in use by another user', [
            { field: 'email', message: 'is already in use' },
          ]);
        }
        try {
          await store.append(
            streamId,
            [{ id: derivedId('claim', commandId, streamId), type: EMAIL_CLAIMED, data: { userId }, metadata }],
            { expectedRevision: events.length === 0 ? 'no_stream' : events.length - 1 },
          );
          return;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError) || attempt === ATTEMPTS) throw error;
        }
      }
    },

    async release(email, userId, commandId, metadata) {
      const streamId = claimStreamId(email);
      const events = await store.readStream(streamId);
      if (claimant(events)?.userId !== userId) return;
      try {
        await store.append(
          streamId,
          [{ id: derivedId('release', commandId, streamId), type: EMAIL_RELEASED, data: { userId }, metadata }],
          { expectedRevision: events.length - 1 },
        );
      } catch (error) {
        // Someone changed the claim meanwhile: it is no longer ours to release.
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    },
  };
}
