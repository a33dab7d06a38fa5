// What one user may make the collab store keep (docs/collab.md#quotas): how many documents they
// make an hour and own at once, and how many characters their documents hold together. With the
// history each document keeps bounded (history.ts), these bound the disk one account can fill.
// Admins make documents without counting them; a document, and its characters, count for its
// owner, whoever makes it again once deleted or types in it. A deleted document counts no more:
// its history goes with it (history.ts).
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { spend } from '@eventide/platform/auth/rate-limit.ts';
import { isAdmin, type SessionUser } from '@eventide/platform/auth/session.ts';
import type { MemberIndex } from '../store/members.ts';
import { collabErrors } from '../errors.ts';

export interface QuotaOptions {
  members: MemberIndex;
  maxOwnedDocuments: number;
  maxCharactersPerUser: number;
  /**
   * The `document-creation` limit's counter (packages/contract/src/limits.ts), the one the route spends:
   * a create over the WebSocket spends it here, so that both ways count against one budget.
   */
  creations: { counter: RateLimiterAbstract; perHour: number; sparesAdmins: boolean };
}

export interface Quotas {
  /** Before a document of `owner` comes into being (made, or made again once deleted) by `by`: its owner may own one more. */
  mayOwnAnother(owner: string, by: SessionUser): Promise<void>;
  /** A create over the WebSocket: spends one of the user's creations this hour. */
  spendCreation(user: SessionUser): Promise<void>;
  /** Before an op makes a document of `owner` hold `after` characters where it held `before`. */
  mayGrow(owner: string, before: number, after: number): Promise<void>;
}

export function documentQuotas({ members, maxOwnedDocuments, maxCharactersPerUser, creations }: QuotaOptions): Quotas {
  return {
    async mayOwnAnother(owner, by) {
      if (isAdmin(by)) return;
      if ((await members.ownedCount(owner)) >= maxOwnedDocuments) throw collabErrors.tooManyDocuments(maxOwnedDocuments);
    },
    async spendCreation(user) {
      if (creations.sparesAdmins && isAdmin(user)) return;
      // The key the route's mount uses for a signed-in user (rate-limit.ts, clientKey).
      const { ok, res } = await spend(creations.counter, `user:${user.id}`);
      if (!ok) throw collabErrors.creationsSpent(creations.perHour, Math.ceil(res.msBeforeNext / 1000));
    },
    async mayGrow(owner, before, after) {
      if (after <= before) return;
      // What the store holds counts this document as it was before this op.
      const held = (await members.charactersOwnedBy(owner)) - before + after;
      if (held > maxCharactersPerUser) throw collabErrors.quotaReached(maxCharactersPerUser);
    },
  };
}
