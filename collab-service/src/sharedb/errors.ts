// The errors this service adds to ShareDB's own. A client receives `{ code, message }`; codes
// are listed in docs/collab.md.
export class CollabError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export const collabErrors = {
  forbidden: (what: string) => new CollabError('ERR_FORBIDDEN', `not allowed: ${what}`),
  unknownCollection: (collection: unknown) =>
    new CollabError('ERR_UNKNOWN_COLLECTION', `unknown collection ${JSON.stringify(collection)}: documents live in "documents"`),
  badId: (id: string) =>
    new CollabError('ERR_BAD_ID', `${JSON.stringify(id.slice(0, 120))} is not a document id: 1 to 100 letters, digits, "-" or "_"`),
  badOp: (why: string) => new CollabError('ERR_BAD_OP', `invalid op: ${why}`),
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
  documentTooLarge: (max: number) => new CollabError('ERR_DOCUMENT_TOO_LARGE', `a document may hold at most ${max} characters`),
  presenceLimit: (max: number) => new CollabError('ERR_TOO_MANY_OPEN', `a connection may hold at most ${max} presence ids`),
  rateLimited: () => new CollabError('ERR_RATE_LIMITED', 'too many ops queued on this connection'),
  connectionEnded: () =>
    new CollabError('ERR_CONNECTION_ENDED', 'this connection has ended (its session was revoked): nothing more is done for it'),
};
