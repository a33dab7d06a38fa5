// The names GET /changes speaks (changes.ts), without the schemas: what the typed client and the
// web app use at run time, so that their bundles carry no schema code.

/** What may be followed: the three read models, by the names of their collections. */
export const CHANGE_RESOURCES = ['orders', 'products', 'users'] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];

/** The SSE event names of the stream, each message's `event:` field. */
export const CHANGE_EVENTS = {
  /**
   * The stream is open and has sent what changed since the position it resumed from: from here on
   * each change follows as it happens. `data` is {position}; a page fetches what it shows after it.
   */
  ready: 'ready',
  /** An entity was created or changed: `data` is a ChangeMessage with its representation. */
  changed: 'changed',
  /** An entity was deleted: `data` is a ChangeMessage without a body. */
  deleted: 'deleted',
  /**
   * The stream cannot say what changed since the position asked for (too far behind, a client
   * that read too slowly, or a position this store never gave): reload what is shown. It goes on
   * from now.
   */
  reset: 'reset',
  /** The server ends the stream and it should not be reopened as it was (the session ended): `data` says why. */
  ended: 'ended',
} as const;
