// Why the server closes an editor's WebSocket, as the editor page reads it (web/editor.ts): no
// imports, so that the page's bundle takes it as it is.

/** The process is shutting down (RFC 6455's "Service Restart"): reconnect at once, the door sends it elsewhere. */
export const CLOSE_RESTARTING = 1012;
