// The collaborative documents' HTTP shapes (the editing itself is ShareDB over the /collab
// WebSocket, docs/collab.md).
import { z } from 'zod';
import { DOCUMENT_ROLES, SHARED_ROLES } from './roles.ts';
import { text } from '@eventide/kernel/text.ts';

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

export { DOCUMENT_ROLES, ROLE_MAY, SHARED_ROLES, roleIn, type DocumentRole, type SharedRole } from './roles.ts';

export const accessRecord = z.strictObject({
  owner: z.string(),
  editors: z.array(z.string()),
  /** Absent on records made before viewers existed: none. */
  viewers: z.array(z.string()).optional(),
  /** Given when created through POST /collab/documents; documents first opened in the editor have none. */
  title: z.string().optional(),
});
export type AccessRecord = z.infer<typeof accessRecord>;

/** What people call a document; kept in its access record (the editor edits only the text). */
export const documentTitle = text({ min: 1, max: 200 });
export const newDocumentBody = z.strictObject({ title: documentTitle });

/** Someone a document is shared with, by the name they chose (no email: that stays theirs). */
export const person = z.strictObject({
  userId: z.string(),
  /** Null once the account is deleted. */
  name: z.string().nullable(),
});
export type Person = z.infer<typeof person>;

export const documentPeople = z.strictObject({ owner: person, editors: z.array(person), viewers: z.array(person) });
export type DocumentPeople = z.infer<typeof documentPeople>;

export const documentSummary = z.strictObject({
  id: z.string(),
  /** The id for documents created by opening the editor at a new id. */
  title: z.string(),
  /** The caller's part (ROLE_MAY): the owner shares and unshares; editors read and edit; viewers read. */
  role: z.enum(DOCUMENT_ROLES),
  owner: person,
  version: z.number().int().min(0),
  createdAt: z.iso.datetime().optional(),
  modifiedAt: z.iso.datetime().optional(),
});
export type DocumentSummary = z.infer<typeof documentSummary>;
export const documentList = z.strictObject({ items: z.array(documentSummary) });

/**
 * Sharing names the other person by the email of their account (anyone with an account), or by
 * name among the people the caller already shares a document with (names are not unique and not
 * a directory: nobody can list the users by name).
 */
export const shareBody = z
  .strictObject({
    email: z.string().trim().pipe(z.email('must be an email address').max(254, 'must be at most 254 characters')).optional(),
    name: text({ min: 1, max: 200 }).optional(),
    /** Their part: an editor unless said otherwise. */
    role: z.enum(SHARED_ROLES).default('editor'),
  })
  .refine((body) => (body.email === undefined) !== (body.name === undefined), { message: 'send either email or name', path: ['email'] });
export type ShareWith = z.infer<typeof shareBody>;
