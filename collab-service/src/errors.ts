// The errors this service adds to ShareDB's own. A client receives `{ code, message }`; codes
// are listed in docs/collab.md. What else a client may be told is decided in forClient() below.
import ShareDB from 'sharedb';

const COLLAB_CODES = [
  'ERR_FORBIDDEN',
  'ERR_READ_ONLY',
  'ERR_UNKNOWN_COLLECTION',
  'ERR_BAD_ID',
  'ERR_BAD_OP',
  'ERR_BAD_MESSAGE',
  'ERR_BAD_PRESENCE',
  'ERR_BAD_QUERY',
  'ERR_SPOOFED_SOURCE',
  'ERR_PRESENCE_TAKEN',
  'ERR_TOO_FAR_BEHIND',
  'ERR_RATE_LIMITED',
  'ERR_TOO_MANY_OPEN',
  'ERR_DOCUMENT_TOO_LARGE',
  'ERR_UNAVAILABLE',
  'ERR_CONNECTION_ENDED',
  'ERR_QUOTA',
  'ERR_INTERNAL',
] as const;
export type CollabCode = (typeof COLLAB_CODES)[number];

export class CollabError extends Error {
  readonly code: CollabCode;
  constructor(code: CollabCode, message: string) {
    super(message);
    this.code = code;
  }
}

export const collabErrors = {
  forbidden: (what: string) => new CollabError('ERR_FORBIDDEN', `not allowed: ${what}`),
  readOnly: (id: string) =>
    new CollabError('ERR_READ_ONLY', `you may read document ${id} but not change it: its owner shared it with you as a viewer`),
  unknownCollection: (collection: unknown) =>
    new CollabError('ERR_UNKNOWN_COLLECTION', `unknown collection ${JSON.stringify(collection)}: documents live in "documents"`),
  badId: (id: string) =>
    new CollabError('ERR_BAD_ID', `${JSON.stringify(id.slice(0, 120))} is not a document id: 1 to 100 letters, digits, "-" or "_"`),
  badOp: (why: string) => new CollabError('ERR_BAD_OP', `invalid op: ${why}`),
  badMessage: (action: string, field: string, why: string) =>
    new CollabError('ERR_BAD_MESSAGE', `"${action}" message: ${field ? `${field} ${why}` : why}`),
  spoofedSource: () => new CollabError('ERR_SPOOFED_SOURCE', 'that client id was not issued to you'),
  presenceTaken: () => new CollabError('ERR_PRESENCE_TAKEN', 'that presence id belongs to another client'),
  tooFarBehind: (behind: number, limit: number) =>
    new CollabError(
      'ERR_TOO_FAR_BEHIND',
      `this client is ${behind} ops behind (the limit is ${limit}): drop the document and subscribe again without a version`,
    ),
  catchUpSpent: (behind: number, perMinute: number) =>
    new CollabError(
      'ERR_TOO_FAR_BEHIND',
      `catching this connection up by ${behind} more ops is beyond what it may ask for now (${perMinute} a minute): drop the document and subscribe again without a version`,
    ),
  tooManyOpen: (max: number) =>
    new CollabError('ERR_TOO_MANY_OPEN', `a connection may have at most ${max} documents open; unsubscribe from some first`),
  tooManyDocuments: (max: number) =>
    new CollabError('ERR_QUOTA', `you own ${max} documents, the most one person may; delete some to make another`),
  creationsSpent: (perHour: number, retryAfterSeconds: number) =>
    new CollabError('ERR_RATE_LIMITED', `at most ${perHour} documents made in an hour; try again in ${retryAfterSeconds} s`),
  quotaReached: (max: number) =>
    new CollabError(
      'ERR_QUOTA',
      `the owner's documents would hold more than ${max} characters together, the most one person's may; delete some text or documents first`,
    ),
  historyGone: (oldest: number) =>
    new CollabError(
      'ERR_TOO_FAR_BEHIND',
      `the history kept of this document starts at version ${oldest}: drop the document and subscribe again without a version`,
    ),
  documentTooLarge: (max: number) => new CollabError('ERR_DOCUMENT_TOO_LARGE', `a document may hold at most ${max} characters`),
  presenceLimit: (max: number) => new CollabError('ERR_TOO_MANY_OPEN', `a connection may hold at most ${max} presence ids`),
  rateLimited: () => new CollabError('ERR_RATE_LIMITED', 'too many ops queued on this connection'),
  internal: () =>
    new CollabError(
      'ERR_INTERNAL',
      'the server failed while handling this message (a fault on its side, logged there); the connection stays open',
    ),
  connectionEnded: () =>
    new CollabError('ERR_CONNECTION_ENDED', 'this connection has ended (its session was revoked): nothing more is done for it'),
};

/** ShareDB's own codes (its errors about the request: a version, a type, an op), which its types leave out. */
const SHAREDB_CODES = Object.values((ShareDB as unknown as { Error: { CODES: Record<string, string> } }).Error.CODES);
const TOLD_AS_THEY_ARE = new Set<unknown>([...SHAREDB_CODES, ...COLLAB_CODES]);
/** sharedb-mongo's refusals of a bad request (41xx: an op version, a query operator); its 5xxx are its own failures. */
const isMongoAdapterRefusal = (code: unknown) => typeof code === 'number' && code >= 4100 && code < 4200;

const MONGO_MISSING_OPS = 5103;
const HISTORY_GONE =
  'the history kept of this document does not reach back to that version: drop the document and subscribe again without a version';

export interface ReplyError {
  code?: unknown;
  message?: unknown;
}

/**
 * What a client is told of an error in a reply: the error itself when it is about the request,
 * from ShareDB, from this service or from the Mongo adapter's checks. Anything else is a store's or a
 * driver's failure, whose message can name tables, files or hosts: the client is told only that
 * the document is unavailable for now, and `hidden` is what it was not told, for the log.
 */
export function forClient(error: ReplyError): { told: { code: unknown; message: unknown }; hidden?: ReplyError } {
  // sharedb-mongo's "missing ops": the ops from that version were let go (sharedb/history.ts).
  if (error.code === MONGO_MISSING_OPS) return { told: { code: 'ERR_TOO_FAR_BEHIND', message: HISTORY_GONE } };
  if (TOLD_AS_THEY_ARE.has(error.code) || isMongoAdapterRefusal(error.code)) return { told: { code: error.code, message: error.message } };
  return {
    told: { code: 'ERR_UNAVAILABLE', message: 'the document could not be read or saved just now; try again shortly' },
    hidden: error,
  };
}

/**
 * A reply as the client may see it (forClient): its error, and in a bulk fetch or subscribe each
 * document's. `hide` hears what was kept from the client.
 */
export function replyForClient(message: Record<string, unknown>, hide: (error: ReplyError) => void): Record<string, unknown> {
  const told = (error: ReplyError) => {
    const { told, hidden } = forClient(error);
    if (hidden) hide(hidden);
    return told;
  };
  let reply = message;
  if (isErrorLike(message.error)) reply = { ...reply, error: told(message.error) };
  const data = message.data;
  if ((message.a === 'bf' || message.a === 'bs') && typeof data === 'object' && data !== null) {
    const perDocument = Object.entries(data as Record<string, unknown>);
    if (perDocument.some(([, answer]) => isErrorLike((answer as { error?: unknown } | null)?.error))) {
      reply = {
        ...reply,
        data: Object.fromEntries(
          perDocument.map(([id, answer]) => {
            const error = (answer as { error?: unknown } | null)?.error;
            return [id, isErrorLike(error) ? { ...(answer as object), error: told(error) } : answer];
          }),
        ),
      };
    }
  }
  return reply;
}

const isErrorLike = (value: unknown): value is ReplyError => typeof value === 'object' && value !== null;
