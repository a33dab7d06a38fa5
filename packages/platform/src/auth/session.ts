// Sign-in sessions on koa-session. The cookie holds only a random id, signed; the session lives
// in the SessionStore, so signing out ends it on the server and a copied cookie stops working.
//
// Timeouts are ours, on an injectable clock: a session ends when it has not been used for the
// idle timeout, and at the absolute timeout after sign-in however busy it is. While in use, the
// session is touched at most once a minute, which re-sets the cookie with a fresh expiry: the
// transparent refresh.
import { pooledRandomBytes } from '@eventide/kernel/random-pool.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Cookies from 'cookies';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import createSession from 'koa-session';
import type { Actor } from '@eventide/kernel/events/catalogue.ts';
import type { Role, UserPrincipal } from '@eventide/kernel/models/principal.ts';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import { CookieSigner } from './cookie-signer.ts';
import { storeKeyOf } from '@eventide/stores/session-store/keys.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';

export interface SessionUser {
  id: string;
  roles: Role[];
}

/** What the store holds for a signed-in session (no secrets: the key is the secret). */
interface SessionData {
  uid: string;
  roles: Role[];
  /** Sign-in time and last use, ms since the epoch on the session clock. */
  createdAt: number;
  seenAt: number;
}

export interface SessionOptions {
  /** Stores under hashed keys: see session-store/keys.ts. */
  store: SessionStore;
  /** Signing keys for the cookie, newest first (older ones still verify). */
  keys: string[];
  idleMs: number;
  absoluteMs: number;
  clock?: () => number;
}

interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  clock: () => number;
}

function policyOf(ctx: Context): SessionPolicy {
  const policy = ctx.state.sessionPolicy as SessionPolicy | undefined;
  if (!policy) throw new Error('sessions are not installed on this app (createHttpApp needs `auth`)');
  return policy;
}

/** What a client may know of its session: who, and until when. */
export function describeSession(ctx: Context) {
  const session = ctx.session as Partial<SessionData> | null;
  const user = sessionUser(ctx);
  if (!user || !session?.createdAt || !session.seenAt) return undefined;
  const { idleMs, absoluteMs } = policyOf(ctx);
  const absoluteEnd = session.createdAt + absoluteMs;
  return {
    userId: user.id,
    roles: user.roles,
    signedInAt: new Date(session.createdAt).toISOString(),
    /** When it ends unless used before then. */
    expiresAt: new Date(Math.min(session.seenAt + idleMs, absoluteEnd)).toISOString(),
    /** When it ends however busy. */
    absoluteExpiresAt: new Date(absoluteEnd).toISOString(),
  };
}

const SESSION_ID_BYTES = 32;

/**
 * A new session id: 32 random bytes no other id had. koa-session makes one for every request that
 * comes without a session (in case it signs in): a randomBytes call each measured 4.7 µs, a draw
 * from the pool 0.4.
 */
const newSessionId = () => pooledRandomBytes(SESSION_ID_BYTES).toString('base64url');

/** Koa and the cookies module take any object with Keygrip's sign, verify and index. */
const signingKeys = (keys: string[]) => new CookieSigner(keys) as unknown as string[];

export const touchIntervalMs = (idleMs: number) => Math.min(60_000, Math.floor(idleMs / 10));

/** Installs koa-session and the timeout checks on the app; sets ctx.state.user and actor. */
export function installSessions(app: Koa, options: SessionOptions): void {
  const clock = options.clock ?? Date.now;
  app.keys = signingKeys(options.keys);
  app.use(
    createSession(
      {
        key: SESSION_COOKIE,
        maxAge: options.idleMs,
        httpOnly: true,
        sameSite: 'lax',
        signed: true,
        // `secure` left unset: the cookies module marks the cookie Secure whenever the request
        // came over https (through a trusted proxy too, with app.proxy).
        genid: newSessionId,
        store: {
          get: async (key: string) => (await options.store.get(key))?.data,
          set: async (key: string, data: Record<string, unknown>, maxAge: number) =>
            options.store.set(key, { userId: data.uid as string | undefined, data }, maxAge),
          destroy: (key: string) => options.store.destroy(key),
        },
      },
      app,
    ),
  );
  app.use(checkSession(options.idleMs, options.absoluteMs, clock));
}

function checkSession(idleMs: number, absoluteMs: number, clock: () => number): Middleware {
  const touchMs = touchIntervalMs(idleMs);
  return async (ctx, next) => {
    // koa-session has already verified the cookie and loaded the session (an empty one when
    // there was no cookie): only the timeouts are left to check.
    const session = ctx.session as Partial<SessionData> | null;
    if (session?.uid) {
      const now = clock();
      const user = liveUser(session, now, idleMs, absoluteMs);
      if (!user) {
        ctx.session = null;
      } else {
        ctx.state.user = user;
        ctx.state.actor = { type: 'user', userId: user.id } satisfies Actor;
        if (now - session.seenAt! >= touchMs) session.seenAt = now;
      }
    }
    ctx.state.sessionPolicy = { idleMs, absoluteMs, clock } satisfies SessionPolicy;
    await next();
  };
}

/** A session as a connection outside Koa holds it: its user, and its key in the store (for revocations). */
export interface UpgradeSession {
  user: SessionUser;
  /** The store's key for this session, as revocations name it. */
  key: string;
}

/**
 * The session of a request that Koa does not handle, such as a WebSocket upgrade: the same
 * cookie, signature, store and timeouts as the HTTP routes. It does not touch or refresh it.
 */
export async function sessionOfUpgrade(req: IncomingMessage, options: SessionOptions): Promise<UpgradeSession | undefined> {
  // No response to write to: a bad signature's clean-up cookie goes nowhere.
  const nowhere = { getHeader: () => undefined, setHeader: () => undefined } as unknown as ServerResponse;
  const cookies = new Cookies(req, nowhere, { keys: signingKeys(options.keys) });
  const id = cookies.get(SESSION_COOKIE, { signed: true });
  if (!id) return undefined;
  const data = (await options.store.get(id))?.data as Partial<SessionData> | undefined;
  const user = data && liveUser(data, (options.clock ?? Date.now)(), options.idleMs, options.absoluteMs);
  return user && { user, key: storeKeyOf(id) };
}

export async function userOfUpgrade(req: IncomingMessage, options: SessionOptions): Promise<SessionUser | undefined> {
  return (await sessionOfUpgrade(req, options))?.user;
}

/** The session's user, unless the session is incomplete or past its idle or absolute timeout. */
function liveUser(data: Partial<SessionData>, now: number, idleMs: number, absoluteMs: number): SessionUser | undefined {
  if (!data.uid || data.createdAt === undefined || data.seenAt === undefined) return undefined;
  if (now - data.createdAt >= absoluteMs || now - data.seenAt >= idleMs) return undefined;
  return { id: data.uid, roles: data.roles ?? [] };
}

/** Signs the user in under a new session id; any session the browser had is ended. */
export async function signIn(ctx: Context, user: SessionUser): Promise<void> {
  const clock = policyOf(ctx).clock;
  // An ended session (signed out, timed out) in this request: start from an empty one.
  if (!ctx.session) ctx.session = {} as never;
  const session = ctx.session as unknown as SessionData & { regenerate(): Promise<void> };
  const now = clock();
  Object.assign(session, { uid: user.id, roles: user.roles, createdAt: now, seenAt: now } satisfies SessionData);
  await session.regenerate();
  ctx.state.user = user;
  ctx.state.actor = { type: 'user', userId: user.id } satisfies Actor;
}

/** Ends the session on the server and clears the cookie. */
export function signOut(ctx: Context): void {
  ctx.session = null;
  delete ctx.state.user;
  ctx.state.actor = { type: 'anonymous' } satisfies Actor;
}

export function sessionUser(ctx: Context): SessionUser | undefined {
  return ctx.state.user as SessionUser | undefined;
}

export const isAdmin = (user: SessionUser | undefined) => user?.roles.includes('admin') ?? false;

/** The signed-in user as the domain's rules see them. */
export const principalOf = (user: SessionUser): UserPrincipal => ({ type: 'user', userId: user.id, admin: isAdmin(user) });
