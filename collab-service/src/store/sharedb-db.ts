// What ShareDB's database adapters (sqlite-db.ts, postgres-db.ts) share: the shapes ShareDB hands
// them and expects back, and the one query they answer.
import { CollabError } from '../errors.ts';

// ShareDB passes null for "no error"; its published types say undefined: either is accepted.
// biome-ignore lint/suspicious/noExplicitAny: ShareDB's callbacks take null or undefined for no error
export type Callback<T = unknown> = (error: any, result?: T) => void;

export interface StoredSnapshot {
  id: string;
  v: number;
  type: string | null;
  data: unknown;
  m: unknown;
}

/** ShareDB reads `snapshot.m` only when asked for metadata; `$submit` asks for it internally. */
export const wantsMetadata = (fields: unknown, options: unknown) =>
  Boolean((fields as { $submit?: boolean } | null)?.$submit || (options as { metadata?: boolean } | null)?.metadata);

/**
 * The one query the adapters answer, for an administrator's console: every live document of a
 * collection by id, `$limit` (default and most 1000) from `$skip`. Other keys are refused, not ignored.
 */
export function listQuery(query: unknown): { limit: number; skip: number } {
  const { $limit = 1000, $skip = 0, ...rest } = (query ?? {}) as { $limit?: number; $skip?: number };
  if (Object.keys(rest).length > 0) throw new CollabError('ERR_BAD_QUERY', `unsupported query keys: ${Object.keys(rest).join(', ')}`);
  if (!Number.isInteger($limit) || $limit < 1 || $limit > 1000 || !Number.isInteger($skip) || $skip < 0) {
    throw new CollabError('ERR_BAD_QUERY', '$limit must be 1..1000 and $skip 0 or more');
  }
  return { limit: $limit, skip: $skip };
}
