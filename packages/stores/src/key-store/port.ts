// The key store: one data key per person (a subject, such as a user id), so that forgetting the
// person is destroying one key (crypto-shredding), and one secret for keyed hashes of personal
// values that must still be found by value (the claim on an email address). It is kept apart from
// the event store, which never holds a key: its own SQLite file on the embedded default, MongoDB
// collections on the real engines.

/** What a store knows of one subject's key. */
export type KeyState =
  | { state: 'active'; key: Buffer }
  | { state: 'forgotten'; forgottenAt: string }
  /** No key was ever made for the subject (data about them, if any, predates encryption). */
  | { state: 'unknown' };

export type ForgetOutcome = 'forgotten' | 'already-forgotten' | 'unknown';

/** AES-256 keys. */
export const KEY_BYTES = 32;

export interface KeyForOptions {
  /**
   * The caller writes the first event of a stream of the subject's (a sign-up): the key is most
   * likely not there yet, and a store may make it without looking first. One that is there, or a
   * forgotten subject's mark, still wins: the answer is the same, only the order of the work changes.
   */
  likelyNew?: boolean;
}

export interface KeyStore {
  /**
   * The subject's key, made on first use; concurrent first uses (from any process) get the same.
   * Rejects with SubjectForgottenError for a forgotten subject: it never gets a key again.
   */
  keyFor(subject: string, options?: KeyForOptions): Promise<Buffer>;
  /** What is known of each subject's key, making none. */
  lookup(subjects: readonly string[]): Promise<Map<string, KeyState>>;
  /**
   * Destroys the subject's key for good, and remembers that the subject was forgotten so that no
   * key is made for it later. Harmless to repeat: says what it found.
   */
  forget(subject: string): Promise<ForgetOutcome>;
  /**
   * A keyed hash (HMAC-SHA-256, hex) of a value under this store's own secret, for one purpose:
   * equal values give equal hashes, and without the secret no guess of the value can be checked.
   */
  blindIndex(purpose: string, value: string): string;
  /**
   * A note kept beside the secret under a name: a fact about the data its keyed hashes name (what
   * claims.ts records of the claim streams' names), moved with the secret (infra/src/move).
   * `setNote` replaces what was there; `note` answers undefined for a name never set.
   */
  note(name: string): Promise<string | undefined>;
  setNote(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}

export class SubjectForgottenError extends Error {
  readonly subject: string;
  constructor(subject: string) {
    super(`${subject} was forgotten: their key is destroyed and no new one is made`);
    this.name = 'SubjectForgottenError';
    this.subject = subject;
  }
}
