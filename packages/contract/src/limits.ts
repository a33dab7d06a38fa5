// The rate limits the table's operations spend (operations.ts names them), each declared once:
// its budget (from configuration where an operator may tune it), its window, and whom it spares.
// The mount (http/mount.ts) spends one point per request, per client: the signed-in user, else
// the address. docs/auth.md#rate-limits describes them.
import type { Config } from '@eventide/kernel/config.ts';
import type { LimitName } from './operations.ts';
import type { Operation, ServiceName } from './operation.ts';

/** What a read of the read models takes, measured from outside: a page of 20 products, 0.5 ms. */
const CHEAP_READ_MS = 0.5;

/** The services whose reads spend the read budget: the read models and the documents. */
const READ_SIDE: readonly ServiceName[] = ['query', 'collab'];

/**
 * What a read of `operation` reserves from its client's read budget before it runs, in
 * milliseconds (RATE_LIMIT_READ_MS_PER_SECOND, platform/http/read-budget.ts); undefined for what
 * does not spend it (writes, sign-in, the docs, the web app's files, the probes, exports, which have
 * a budget of their own).
 */
export function readCostOf(operation: Operation): number | undefined {
  if (operation.method !== 'get' || !READ_SIDE.includes(operation.service)) return undefined;
  return operation.readCost ?? CHEAP_READ_MS;
}

export interface LimitPolicy {
  points: number;
  /** Window in seconds. */
  duration: number;
  /** What is counted, for the refusal's detail. */
  what: string;
  /** Admins are not counted (they may make accounts for others, and may list every user anyway). */
  sparesAdmins?: boolean;
  /** Counted per address even for a signed-in user: accounts are cheap, an address is not. Default: the client (the user, else the address). */
  countsBy?: 'client' | 'address';
}

/** An export reads every section: a few an hour are plenty for a person, and cheap for the service. */
export const EXPORTS_PER_HOUR = 10;

export function limitPolicies(config: Config): Record<LimitName, LimitPolicy> {
  return {
    search: { points: config.RATE_LIMIT_SEARCH_PER_SECOND, duration: 1, what: 'searches' },
    'user-profile': { points: config.RATE_LIMIT_PROFILE_PER_SECOND, duration: 1, what: 'requests to a user profile' },
    // Each sign-up may answer that an address is taken (docs/auth.md, "Who can learn that an
    // address has an account"), so strangers get few of them.
    'sign-up': { points: config.RATE_LIMIT_SIGN_UPS_PER_HOUR, duration: 3600, what: 'sign-ups from this address', sparesAdmins: true },
    // A change of one's address may answer that the new one is taken, as a sign-up may: spent
    // only when the address really changes (the user handlers).
    'email-change': { points: config.RATE_LIMIT_EMAIL_CHANGES_PER_HOUR, duration: 3600, what: 'changes of address', sparesAdmins: true },
    // One budget per address for every answer that could tell whether an email has an account
    // (docs/auth.md, "Who can learn that an address has an account"), spent beside each channel's
    // own: a sign-up, a change of address, a document shared by email.
    'account-answer': {
      points: config.RATE_LIMIT_ACCOUNT_ANSWERS_PER_HOUR,
      duration: 3600,
      what: 'answers that could tell whether an email has an account, from this address',
      sparesAdmins: true,
      countsBy: 'address',
    },
    'personal-data-export': { points: EXPORTS_PER_HOUR, duration: 3600, what: 'exports' },
    // Each lookup of a person to share with is a question about who has an account.
    'person-lookup': { points: config.COLLAB_SHARE_LOOKUPS_PER_HOUR, duration: 3600, what: 'people looked up to share with' },
    // Spent by every way a document comes into being: this route, and a create over the editor's
    // WebSocket (collab-service/src/sharedb/guard.ts), on one counter per user.
    'document-creation': {
      points: config.COLLAB_DOCUMENTS_PER_HOUR,
      duration: 3600,
      what: 'documents made',
      sparesAdmins: true,
    },
    // Each name given or taken off writes the names' record and may keep a milestone: counted.
    'version-naming': { points: config.COLLAB_VERSION_NAMES_PER_HOUR, duration: 3600, what: 'versions named or unnamed' },
  };
}
