// The shape of one operation of the route table (operations.ts): who serves it, where, for whom,
// what it reads and spends, what its domain refuses; and the version sets and header sets the
// table's entries share.
import type { ProblemType } from './problem-types.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call, enforced by the mount before the handler runs:
 * - `public`: anyone;
 * - `signed-out`: anyone not signed in, and admins (signing up someone else); 403 for a signed-in user;
 * - `signed-in`: a session (401 without one);
 * - `self`: the user the path's `{id}` names, or an admin; anyone else's answers 404, as a missing one would;
 * - `owner`: the owner of what the path names, or an admin, by the rule the service registers beside
 *   the handler (the entity's model: an order's customer, a document's members); 404 to anyone who
 *   may not know it exists, 403 to one who may see it but not do this;
 * - `admin`: an admin (403 for anyone else).
 */
export type Access = 'public' | 'signed-out' | 'signed-in' | 'self' | 'owner' | 'admin';

/** The processes of a split deployment (docs/operations.md); `platform` routes are served by every process. */
export type ServiceName = 'command' | 'query' | 'collab' | 'docs' | 'web' | 'export' | 'platform';

/** Request headers a route reads, beyond the session cookie: the mount parses and checks them. */
export type RequestHeader = 'If-Match' | 'Idempotency-Key' | 'Wait-For-Position' | 'Last-Event-ID';

/** The rate limits, by name; each one's budget is declared once, in limits.ts. A route spends its `limit`; a handler may spend another when what it does calls for it (a change of address). */
export type LimitName =
  | 'search'
  | 'user-profile'
  | 'sign-up'
  | 'email-change'
  | 'account-answer'
  | 'personal-data-export'
  | 'person-lookup'
  | 'document-creation'
  | 'version-naming';

/**
 * Where a versioned operation is served: `unversioned` (/users) serves the current version, v2;
 * `v2` (/v2/users); `v1` (/v1/users), deprecated (versioning.ts).
 */
export type PathVersion = 'unversioned' | 'v2' | 'v1';

export interface Operation {
  service: ServiceName;
  method: Method;
  /** OpenAPI form: /users/{id}. Without its version prefix. */
  path: string;
  access: Access;
  tag: string;
  summary: string;
  headers?: readonly RequestHeader[];
  limit?: LimitName;
  /**
   * When `limit` is spent: before the handler runs (the default), or by the handler once the work
   * it counts begins, so that a refusal for the server's own reasons (every export place held)
   * costs the client nothing of its budget.
   */
  limitSpent?: 'before' | 'by-handler';
  /**
   * A costly read's usual cost, in milliseconds of the server's time, reserved from the client's
   * read budget before it runs; what its handler takes beyond is charged after. Other reads
   * reserve 1 and are not timed (readCostOf); a handler charges what it alone knows is costly
   * (an as-of fold, a stream's catch-up).
   */
  readCost?: number;
  /** Served under these versions, each with its own representation; absent: once, unversioned. */
  versions?: readonly PathVersion[];
  /**
   * The problems its handler answers for reasons of its own (a taken address, a step the life
   * cycle lacks). Those the table implies are not listed: the mount's for access, path, input,
   * headers and limits, and the stores' (answers.ts derives them).
   */
  refuses?: readonly ProblemType[];
}

/** Served at every path version; at the two prefixed ones; only unversioned. */
export const ALL: readonly PathVersion[] = ['unversioned', 'v2', 'v1'];
export const PREFIXED: readonly PathVersion[] = ['v2', 'v1'];
export const UNVERSIONED: readonly PathVersion[] = ['unversioned'];
/** The headers every write reads, and every read. */
export const WRITE = ['If-Match', 'Idempotency-Key'] as const;
export const READ = ['Wait-For-Position'] as const;
