// GET /changes: the read models moving live, as server-sent events. A signed-in user names the
// resources they follow (`of`), and gets each change to an entity of them that they may read, as
// the entity's read route would show it now. docs/api.md#live describes the stream.
import { z } from 'zod';
import { eventPosition } from './events.ts';

/** What may be followed: the three read models, by the names of their collections. */
export const CHANGE_RESOURCES = ['orders', 'products', 'users'] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];
const isResource = (name: string): name is ChangeResource => (CHANGE_RESOURCES as readonly string[]).includes(name);

export const changesQuery = z.strictObject({
  /** Comma-separated; all three when absent (each still only what the caller may read). */
  of: z
    .string()
    .max(100)
    .transform((text, ctx) => {
      const names = [...new Set(text.split(',').map((name) => name.trim()))].filter(Boolean);
      const unknown = names.find((name) => !isResource(name));
      if (unknown !== undefined || names.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${unknown === undefined ? 'name at least one' : `${JSON.stringify(unknown.slice(0, 20))} is not one`} of ${CHANGE_RESOURCES.join(', ')}`,
        });
        return z.NEVER;
      }
      return names as ChangeResource[];
    })
    .optional(),
  /** Start after this position (an Event-Position or Read-Position the caller holds); Last-Event-ID, when sent, wins. */
  after: eventPosition.optional(),
});

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

/** What `changed` and `deleted` carry. `body` is what GET of the entity answers (the current version's representation). */
export const changeMessage = z.strictObject({
  resource: z.enum(CHANGE_RESOURCES),
  id: z.string(),
  /** The entity's version (its ETag); a message of a version already shown can be ignored. */
  version: z.number().int().nonnegative(),
  body: z.unknown().optional(),
});
export type ChangeMessage = z.infer<typeof changeMessage>;

export const resetMessage = z.strictObject({ reason: z.string() });
