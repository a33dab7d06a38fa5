// "My documents": which documents a user owns or edits, read from the access records through an
// index each store keeps (a table written with the record on SQLite, indexes on MongoDB).
import type { AccessRecord } from '@eventide/shared/api/documents.ts';

/** The server-only collection of access records (sharedb/access.ts). */
export const ACCESS_COLLECTION = 'collab_access';

export interface Membership {
  id: string;
  role: 'owner' | 'editor';
}

export interface MemberIndex {
  /** The documents a user owns or edits; at most `limit`, in no particular order. */
  documentsOf(userId: string, limit: number): Promise<Membership[]>;
}

/** The members an access record names (none for a deleted record). */
export function membersOf(data: unknown): { userId: string; role: Membership['role'] }[] {
  const record = data as Partial<AccessRecord> | undefined;
  if (!record || typeof record.owner !== 'string') return [];
  const editors = Array.isArray(record.editors)
    ? record.editors.filter((e): e is string => typeof e === 'string' && e !== record.owner)
    : [];
  return [{ userId: record.owner, role: 'owner' }, ...editors.map((userId) => ({ userId, role: 'editor' as const }))];
}
