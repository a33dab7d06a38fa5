// One user per email: claims on `email-<keyed hash of the normalised address>` (claims.ts says
// how they are named, and how they bind without ever being released). A claim binds while its holder is active and holds
// the address.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { claimStreamOf, uniqueClaims, type ClaimNames, type Claims } from '../claims.ts';
import { streamIdOf } from '@eventide/kernel/events/catalogue.ts';
import { normalizeEmail, userModel } from '@eventide/kernel/models/user/state.ts';

export { CLAIM_GRACE_MS } from '../claims.ts';

/** A private event: it never leaves the write side. */
export const EMAIL_CLAIMED = 'email:claimed';

export function claimStreamId(email: string, names: ClaimNames): string {
  return claimStreamOf('email', normalizeEmail(email), names);
}

export type EmailClaims = Claims;

export function emailClaims(store: EventStore, names: ClaimNames, now?: () => Date): EmailClaims {
  return uniqueClaims(
    store,
    names,
    {
      kind: 'email',
      normalize: normalizeEmail,
      holderStream: (userId) => streamIdOf(userModel.model, userId),
      holder: userModel,
      holds: (user, email) => user.status === 'active' && user.email !== null && normalizeEmail(user.email) === email,
      conflict: () =>
        refuse.conflict('this email address is already in use by another user', {
          fields: [{ field: 'email', message: 'is already in use' }],
        }),
    },
    now,
  );
}
