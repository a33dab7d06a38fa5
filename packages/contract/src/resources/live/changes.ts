// GET /changes: the read models moving live, as server-sent events. A signed-in user names the
// resources they follow (`of`), and gets each change to an entity of them that they may read, as
// the entity's read route would show it now. docs/api.md#live describes the stream.
import { z } from 'zod';
import { eventPosition } from './events.ts';
import { type CHANGE_EVENTS, CHANGE_RESOURCES, type ChangeResource } from './change-events.ts';

export { CHANGE_EVENTS, CHANGE_RESOURCES, type ChangeResource } from './change-events.ts';

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

/** What `ready` carries: the position the stream has caught up to. */
export const readyMessage = z.strictObject({ position: z.number().int().nonnegative() });

/** What `ended` carries: why the server ended the stream. */
export const endedMessage = z.strictObject({ reason: z.string() });

/** Each message of the stream by its `event:` name, and what its `data` is. */
export const CHANGE_MESSAGES = {
  ready: readyMessage,
  changed: changeMessage.required({ body: true }),
  deleted: changeMessage.omit({ body: true }),
  reset: resetMessage,
  ended: endedMessage,
} as const satisfies Record<keyof typeof CHANGE_EVENTS, z.ZodType>;
