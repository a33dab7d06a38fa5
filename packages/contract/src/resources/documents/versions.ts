// A document's named versions and the timeline people browse (docs/collab.md#versions): a version
// someone gave a name to is kept, text and all, however far the history is trimmed; the
// milestones the server saved on its own are kept only as long as the history they belong to.
import { z } from 'zod';
import { person } from './schemas.ts';
import { text } from '@eventide/kernel/text.ts';

/** The most named versions one document keeps: a name past it is refused until one is forgotten. */
export const MAX_NAMED_VERSIONS = 100;

const version = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const versionName = text({ min: 1, max: 100 });
export const nameVersionBody = z.strictObject({
  name: versionName,
  /** The version to name; the document's current one when absent. */
  version: version.optional(),
});
export type NameVersion = z.infer<typeof nameVersionBody>;

export const namedVersion = z.strictObject({
  version,
  name: z.string(),
  /** Who named it. */
  by: person,
  /** When it was named. */
  namedAt: z.iso.datetime(),
  /** When the document reached that version, when known. */
  madeAt: z.iso.datetime().optional(),
});
export type NamedVersion = z.infer<typeof namedVersion>;

export const milestone = z.strictObject({ version, madeAt: z.iso.datetime().optional() });
export type Milestone = z.infer<typeof milestone>;

export const documentTimeline = z.strictObject({
  id: z.string(),
  /** The version the document is at now. */
  current: version,
  /** The oldest version that can be read apart from the named ones: the history kept starts there. */
  oldest: version,
  /** Newest first. */
  named: z.array(namedVersion),
  /** The versions the server saved on its own, newest first. */
  milestones: z.array(milestone),
});
export type DocumentTimeline = z.infer<typeof documentTimeline>;

/** A version in a path: a whole number of 0 or more; anything else names no version (404). */
export const versionParam = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/)
  .transform(Number);
