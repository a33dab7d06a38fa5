// What the sign-in routes need besides the event store.
import type { LimiterFactory } from '@eventide/shared/auth/rate-limit.ts';
import type { SignInGuardOptions } from '@eventide/shared/auth/sign-in-guard.ts';
import type { SessionStore } from '@eventide/shared/auth/session-store/port.ts';
import type { PasswordHasher } from '@eventide/shared/auth/hasher.ts';

export interface AuthDeps {
  /** The sessions' store (hashed keys), to end every session of a user. */
  sessions: SessionStore;
  limiters: LimiterFactory;
  signIn: SignInGuardOptions;
  /** Every password hash goes through it, fairly per client. */
  hasher: PasswordHasher;
}
