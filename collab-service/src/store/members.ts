// "My documents": which documents a user owns, edits or views, read from the access records through an
// index each store keeps (a table written with the record on SQLite, indexes on MongoDB).
import type { AccessRecord, DocumentRole } from '@eventide/contract/resources/documents/schemas.ts';

/** The one collection clients edit (sharedb/access.ts). */
export { DOCUMENTS_COLLECTION } from '@eventide/contract/resources/documents/collab-wire.ts';
/** The server-only collection of access records (sharedb/access.ts). */
export const ACCESS_COLLECTION = 'collab_access';

export interface Membership {
  id: string;
  role: DocumentRole;
}

export interface MemberIndex {
  /** The documents a user has a part in; at most `limit`, in no particular order. */
  documentsOf(userId: string, limit: number): Promise<Membership[]>;
  /** How many documents the user owns and has not deleted, those claimed and not yet made included (sharedb/quotas.ts). */
  ownedCount(userId: string): Promise<number>;
  /**
   * The characters the user's live documents hold together, as their snapshots recorded at their
   * last commit (`m.characters`); a document not edited since that was recorded counts nothing.
   */
  charactersOwnedBy(userId: string): Promise<number>;
}

/** The members an access record names (none for a deleted record). */
export function membersOf(data: unknown): { userId: string; role: Membership['role'] }[] {
  const record = data as Partial<AccessRecord> | undefined;
  if (!record || typeof record.owner !== 'string') return [];
  const others = (list: unknown) =>
    Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string' && e !== record.owner) : [];
  return [
    { userId: record.owner, role: 'owner' },
    ...others(record.editors).map((userId) => ({ userId, role: 'editor' as const })),
    ...others(record.viewers).map((userId) => ({ userId, role: 'viewer' as const })),
  ];
}
