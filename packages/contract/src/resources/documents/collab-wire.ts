// What the server and every editor (the web app's, the Node client's) agree on about the /collab
// WebSocket beyond ShareDB's protocol (docs/collab.md): where documents live, the close codes and
// the text of a document. No imports, so that the browser's bundle takes it as it is.

/** Where the WebSocket is: the one path of this API that is not in the route table, since it upgrades rather than answers. */
export const COLLAB_PATH = '/collab';

/** The one collection clients edit. */
export const DOCUMENTS_COLLECTION = 'documents';

/** The process is shutting down (RFC 6455's "Service Restart"): reconnect at once, the door sends it elsewhere. */
export const CLOSE_RESTARTING = 1012;
// Close codes of ours are in 4000-4999, the application's range (RFC 6455).
/** The session ended (sign-out, a password change, a changed role, a timeout): sign in again. */
export const CLOSE_SESSION_ENDED = 4401;
/** Access to a document open on this connection was withdrawn. */
export const CLOSE_FORBIDDEN = 4403;

/** The plain text of a rich-text document: its string inserts, in order. */
export const plainText = (data: unknown): string =>
  ((data as { ops?: { insert?: unknown }[] } | undefined)?.ops ?? [])
    .map((op) => (typeof op.insert === 'string' ? op.insert : ''))
    .join('');
