// What one user may make the collab store keep (docs/collab.md#quotas): how many documents they
// make an hour and own at once, and how many characters their documents hold together, the named
// versions' milestones included (each keeps its text for good: 20 names of a 1M-character document
// had kept 23 MiB outside the quota). With the history each document keeps bounded (history.ts),
// these bound the disk one account can fill.
// Admins make documents without counting them; a document, and its characters, count for its
// owner, whoever makes it again once deleted or types in it. A deleted document counts no more:
// its history goes with it (history.ts).
import type { RateLimiterAbstract } from '@eventide/platform/auth/limiter-classes.ts';
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
  /** The characters the named versions of the user's documents keep (named-versions.ts). */
  keptBy(owner: string): Promise<number>;
  clock?: () => number;
}

/** What the named versions keep is read again after this long, or at once after a name given or taken off here. */
const KEPT_FRESH_MS = 30_000;

export interface Quotas {
  /** Before a document of `owner` comes into being (made, or made again once deleted) by `by`: its owner may own one more. */
  mayOwnAnother(owner: string, by: SessionUser): Promise<void>;
  /** A create over the WebSocket: spends one of the user's creations this hour. */
  spendCreation(user: SessionUser): Promise<void>;
  /** Before an op makes a document of `owner` hold `after` characters where it held `before`. */
  mayGrow(owner: string, before: number, after: number): Promise<void>;
  /** Before a version of `characters` is named on a document of `owner`: its milestone is kept for good. */
  mayKeep(owner: string, characters: number): Promise<void>;
  /** After a name is given or taken off a document of `owner`: what its names keep is read again. */
  keptChanged(owner: string): void;
}

export function documentQuotas({
  members,
  maxOwnedDocuments,
  maxCharactersPerUser,
  creations,
  keptBy,
  clock = Date.now,
}: QuotaOptions): Quotas {
  // Read per owner, not per op: a name is given a few times an hour, an op many times a second.
  const kept = new Map<string, { characters: number; at: number }>();
  async function keptNow(owner: string): Promise<number> {
    const known = kept.get(owner);
    if (known && clock() - known.at < KEPT_FRESH_MS) return known.characters;
    const characters = await keptBy(owner);
    kept.set(owner, { characters, at: clock() });
    // Owners who stopped editing are not remembered for good.
    if (kept.size > 10_000) for (const [who, entry] of kept) if (clock() - entry.at >= KEPT_FRESH_MS) kept.delete(who);
    return characters;
  }
  const held = async (owner: string) => (await members.charactersOwnedBy(owner)) + (await keptNow(owner));
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
      if ((await held(owner)) - before + after > maxCharactersPerUser) throw collabErrors.quotaReached(maxCharactersPerUser);
    },
    async mayKeep(owner, characters) {
      kept.delete(owner);
      if ((await held(owner)) + characters > maxCharactersPerUser) throw collabErrors.quotaReached(maxCharactersPerUser);
    },
    keptChanged(owner) {
      kept.delete(owner);
    },
  };
}
