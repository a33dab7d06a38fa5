// One user per email, enforced by the event store: each normalised address has a claim stream
// (`email-<sha256>`, so the address itself is not in a stream name). Every claim is appended at
// the revision it was read at, so of two racing claims the store accepts one and the other
// reads again.
//
// Claims are never released. Whether the last claim still binds is derived from its holder:
// - once the holder's stream has an event after the claim, the command that made the claim
//   has either recorded its event or can no longer (its append expects the revision it read
//   before claiming): the claim binds while the holder is active and holds this address;
// - before that, the claim is in flight and binds for a grace period; a claim whose command
//   died in between frees itself when the period ends.
// So moving to a new address, or deleting the user, frees the old one with no second write
// that could race the first.
import { createHash } from 'node:crypto';
import type { EventMetadata } from '@eventide/shared/events/catalogue.ts';
import { WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '@eventide/shared/event-store/port.ts';
import { problems } from '@eventide/shared/http/problem.ts';
import { derivedId } from '@eventide/shared/ids.ts';
import { fold } from '../aggregate.ts';
import { normalizeEmail, userAggregate } from './user.ts';

/** A private event: it never leaves the write side. */
export const EMAIL_CLAIMED = 'email:claimed';

/** Long enough for a request in flight to finish its second append. */
export const CLAIM_GRACE_MS = 60_000;
const ATTEMPTS = 5;

export function claimStreamId(email: string): string {
  return `email-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;
}

/** Whether `event` was recorded after `claim`: by global position where both are known, else by time. */
function recordedAfter(event: RecordedEvent, claim: RecordedEvent): boolean {
  if (event.position > 0 && claim.position > 0) return event.position > claim.position;
  return Date.parse(event.time) > Date.parse(claim.time);
}

export interface EmailClaims {
  /** Claims the address for the user, or throws 409 when it binds another user. */
  claim(email: string, userId: string, commandId: string, metadata: EventMetadata): Promise<void>;
}

export function emailClaims(store: EventStore, now: () => Date = () => new Date()): EmailClaims {
  async function binds(email: string, claim: RecordedEvent): Promise<boolean> {
    const holderId = (claim.data as { userId: string }).userId;
    const history = await store.readStream(`user-${holderId}`);
    if (!history.some((e) => recordedAfter(e, claim))) {
      return now().getTime() - Date.parse(claim.time) < CLAIM_GRACE_MS;
    }
    const holder = fold(userAggregate, history);
    return holder.status === 'active' && normalizeEmail(holder.email) === normalizeEmail(email);
  }

  return {
    async claim(email, userId, commandId, metadata) {
      const streamId = claimStreamId(email);
      const claimId = derivedId('claim', commandId, streamId);
      for (let attempt = 1; ; attempt++) {
        const events = await store.readStream(streamId);
        const last = events.at(-1);
        if (last?.id === claimId) return; // a retry of this very command
        const holderId = (last?.data as { userId?: string } | undefined)?.userId;
        if (last && holderId !== userId && (await binds(email, last))) {
          throw problems.conflict('this email address is already in use by another user', [
            { field: 'email', message: 'is already in use' },
          ]);
        }
        // Appended even when the user holds the claim already: a racing claim by someone
        // else must meet this one in the claim stream.
        try {
          await store.append(streamId, [{ id: claimId, type: EMAIL_CLAIMED, data: { userId }, metadata }], {
            expectedRevision: last ? last.revision : 'no_stream',
          });
          return;
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError) || attempt === ATTEMPTS) throw error;
        }
      }
    },
  };
}
