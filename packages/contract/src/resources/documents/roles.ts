// A person's part in a collaborative document, without the schemas (documents.ts has those): what
// the editor's and the app's bundles use at run time.

/**
 * A person's part in a document, and what each allows: declared once, enforced by the server (the
 * WebSocket's guards and the routes) and offered by the pages.
 */
export const DOCUMENT_ROLES = ['owner', 'editor', 'viewer'] as const;
export type DocumentRole = (typeof DOCUMENT_ROLES)[number];
/** The parts an owner gives others. */
export const SHARED_ROLES = ['editor', 'viewer'] as const satisfies readonly DocumentRole[];
export type SharedRole = (typeof SHARED_ROLES)[number];
export const ROLE_MAY: Record<DocumentRole, { read: boolean; edit: boolean; manage: boolean }> = {
  /** Reads, edits, shares, changes parts, deletes. */
  owner: { read: true, edit: true, manage: true },
  editor: { read: true, edit: true, manage: false },
  /** Reads, follows the others' edits and cursors, shows a cursor; an op is refused. */
  viewer: { read: true, edit: false, manage: false },
};

/** A user's part in a document, by its access record, or undefined when they have none. */
export function roleIn(
  record: { owner: string; editors: readonly string[]; viewers?: readonly string[] },
  userId: string,
): DocumentRole | undefined {
  if (record.owner === userId) return 'owner';
  if (record.editors.includes(userId)) return 'editor';
  if (record.viewers?.includes(userId)) return 'viewer';
  return undefined;
}
