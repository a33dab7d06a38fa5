// Server-side records with a time to live: sign-in sessions, and the short-lived state of an
// OAuth flow. Keys reach an adapter already hashed (keys.ts), so a copy of the store holds no
// cookie that would sign anyone in.

export interface StoredRecord {
  /** The user a session belongs to; lets every session of one user end at once. */
  userId?: string | undefined;
  data: Record<string, unknown>;
}

export interface SessionStore {
  /** The record, or undefined when it is missing or has expired. */
  get(key: string): Promise<StoredRecord | undefined>;
  /** Creates or replaces the record; it expires `ttlMs` from now. */
  set(key: string, record: StoredRecord, ttlMs: number): Promise<void>;
  destroy(key: string): Promise<void>;
  /** Reads and deletes in one step: of two concurrent takes, one gets the record. */
  take(key: string): Promise<StoredRecord | undefined>;
  /** Ends every record of the user; answers how many there were. */
  destroyUser(userId: string): Promise<number>;
  close(): Promise<void>;
}
