// The collaborative documents' HTTP shapes (the editing itself is ShareDB over the /collab
// WebSocket, docs/collab.md).
import { z } from 'zod';

export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const documentId = z.string().regex(DOCUMENT_ID, 'a document id is 1 to 100 letters, digits, "-" or "_"');
export const editorId = z.uuid('must be a user id').toLowerCase();

export const documentReadQuery = z
  .strictObject({
    version: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be a whole number of 0 or more')
      .transform(Number)
      .optional(),
    at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z' }).optional(),
  })
  .refine((q) => q.version === undefined || q.at === undefined, { message: 'give version or at, not both', path: ['at'] });

export const documentText = z.strictObject({
  id: z.string(),
  version: z.number().int().min(0),
  /** Null when the document did not exist at that point (or was deleted). */
  text: z.string().nullable(),
  createdAt: z.iso.datetime().optional(),
  modifiedAt: z.iso.datetime().optional(),
});
export type DocumentText = z.infer<typeof documentText>;

export const accessRecord = z.strictObject({ owner: z.string(), editors: z.array(z.string()) });
export type AccessRecord = z.infer<typeof accessRecord>;
