// Ending access is only real once every open connection that used it has ended too. The REST
// API checks the session store on every request, but a WebSocket is checked once, when it opens:
// sign-out, a password change, a deleted user, a changed role, or an editor taken off a document
// must reach the processes that hold such connections, at once. This feed carries those ends.

export type Revocation =
  /** One session ended (sign-out, a new sign-in in the same browser, a timeout noticed): its store key. */
  | { type: 'session'; session: string }
  /** Every session of a user ended (password change, deleted user, role change). */
  | { type: 'user'; userId: string }
  /** A user may no longer open a collaborative document. */
  | { type: 'document-access'; document: string; userId: string }
  /** A user's part in a document changed (an editor made a viewer): what was known of it is dropped. */
  | { type: 'document-role'; document: string; userId: string };

export interface RevocationFeed {
  /** Records the revocation for every process sharing the store, and tells this process's listeners before it returns. */
  publish(revocation: Revocation): Promise<void>;
  /** Calls `listener` with each revocation published from now on, by this process or another. */
  subscribe(listener: (revocation: Revocation) => void): () => void;
  close(): Promise<void>;
}

/** The listeners of one process: each is called, and one that throws does not stop the others. */
export class LocalListeners {
  private readonly listeners = new Set<(revocation: Revocation) => void>();
  private readonly onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.onError = onError;
  }

  get size(): number {
    return this.listeners.size;
  }

  add(listener: (revocation: Revocation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(revocation: Revocation): void {
    for (const listener of this.listeners) {
      try {
        listener(revocation);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
