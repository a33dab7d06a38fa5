// Sign-up: a new user, by someone not signed in (or by an admin, or the system), with an
// optional password.
//
// Nothing is written before the address is claimed, so a taken address is refused with no
// partial write: without a password the claim is written with the user, in one commit. The
// password is hashed on the fair queue and recorded in the private account stream before the
// user exists, so a user with a password is never visible without it.
//
// A repeated Idempotency-Key needs care when the caller has no session: every such caller shares
// one scope, so the key alone cannot tell a retry from a stranger who learnt the key, name and
// address. A repeat is answered again only to a caller who proves it made the first request by
// sending the same password (checked like a sign-in, under the same brute-force guard); a repeat
// of a sign-up without a password cannot be proven and is refused.
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { SignInGuard } from '@eventide/platform/auth/sign-in-guard.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { streamIdOf } from '@eventide/kernel/events/catalogue.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { isRefusal, refuse } from '@eventide/kernel/models/refusal.ts';
import { normalizeEmail, type UserState } from '@eventide/kernel/models/user/state.ts';
import { accountStream, loadAccount } from '../account/account.ts';
import { accountCommands } from '../account/decide.ts';
import { commandIdOf, KEY_REUSED, newEntity, type CommandOptions, type WriteResult } from '../handle.ts';
import { userAggregate, type UserCommand, type UserProfile } from '../user/decide.ts';
import type { EmailClaims } from '../user/email-claim.ts';
import type { Caller } from '../caller.ts';
import { activeUser } from './directory.ts';

export interface SignUpDeps {
  store: EventStore;
  claims: EmailClaims;
  run(userId: string, command: UserCommand, options: CommandOptions): Promise<WriteResult<UserState>>;
  hasher: PasswordHasher;
  guard: SignInGuard;
}

export interface SignUpRequest {
  profile: UserProfile;
  password: string | undefined;
  /** Who makes the account: undefined for someone not signed in, else an admin or the system, for someone else. */
  by: Principal | undefined;
  caller: Caller;
  options: CommandOptions;
}

export interface SignedUp {
  result: WriteResult<UserState>;
  /** The new user, to be signed in: someone not signed in who chose a password (or proved it on a repeat). */
  signIn: string | undefined;
}

const unprovable = () =>
  refuse.conflict(
    'a sign-up with this Idempotency-Key was already made; without a session its answer is given again only to a caller who sends the same password',
    { fields: [{ field: 'Idempotency-Key', message: 'already used for a sign-up' }] },
  );

export function signUps({ store, claims, run, hasher, guard }: SignUpDeps) {
  const runAccount = accountCommands(store);
  /** Whether this key's sign-up has written anything yet (its user or its password). */
  async function started(userId: string, commandId: string): Promise<boolean> {
    if ((await store.readCausedBy(streamIdOf(userAggregate.model, userId), commandId)).length > 0) return true;
    return (await store.readStream(accountStream(userId), { toRevision: 0 })).length > 0;
  }

  /** A repeat from a caller without a session: only the first request's password lets it through. */
  async function prove(request: SignUpRequest, userId: string): Promise<void> {
    const { account } = await loadAccount(store, userId);
    if (!account.passwordHash) throw unprovable();
    if (request.password === undefined) throw refuse.keyReused(KEY_REUSED);
    const attempt = await guard.attempt(normalizeEmail(request.profile.email), request.caller.ip);
    const verdict = await hasher.verify(request.caller.key, request.password, account.passwordHash, request.caller.signal);
    if (!verdict.ok) throw refuse.keyReused(KEY_REUSED);
    await attempt.succeeded();
  }

  /**
   * Records the chosen password; false when another request with the same key recorded one first.
   * Its event id is this request's own (no Idempotency-Key passed on): a shared one would make the
   * store take a racing stranger's append as a harmless repeat of the first, and let it go on as
   * that sign-up.
   */
  async function recordPassword(request: SignUpRequest, password: string, userId: string, options: CommandOptions, commandId: string) {
    const hash = await hasher.hash(request.caller.key, password, request.caller.signal);
    try {
      await runAccount(
        userId,
        { type: 'SetPassword', hash, replacing: undefined },
        // A new user's account is as new as the user: nothing of it to read either.
        { metadata: options.metadata, partOf: commandId, unwritten: options.unwritten },
      );
      return true;
    } catch (error) {
      // The account has a password already, or got one while this request appended.
      if (isRefusal(error, 'conflict')) return false;
      throw error;
    }
  }

  return async function signUp(request: SignUpRequest): Promise<SignedUp> {
    const { profile } = request;
    const { id: userId, options } = newEntity(request.options);
    const commandId = commandIdOf(options.idempotency);
    const anonymous = request.by === undefined;
    if (options.idempotency && (await started(userId, commandId))) {
      if (anonymous) await prove(request, userId);
    } else if (request.password !== undefined) {
      await claims.claim(profile.email, userId, commandId, { ...options.metadata, causationId: commandId });
      // A concurrent request with the same key recorded its password first: it is that one's sign-up.
      if (!(await recordPassword(request, request.password, userId, options, commandId)) && anonymous) await prove(request, userId);
    }
    // Without a password, the user's own append claims the address, in the same commit (commands.ts).
    const result = await run(userId, { type: 'CreateUser', userId, profile }, options);
    // Whoever gets here without a session wrote the password or proved it.
    const signIn = anonymous && request.password !== undefined && (await activeUser(store, userId)) ? userId : undefined;
    return { result, signIn };
  };
}
