// The state of one OAuth sign-in between the redirect to the provider and its callback: the PKCE
// verifier, the nonce, the state and where to go afterwards. It travels sealed (AES-256-GCM under
// a key derived from the session secret) in an httpOnly cookie scoped to /auth, so that starting
// a sign-in costs the server nothing it keeps: anyone may start as many as they like, and a
// callback from another browser, or without the cookie, finds nothing. The server writes only
// once a sign-in has completed (the provider has answered for it), a mark that the flow is used,
// so that the same callback cannot complete twice.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import { problems } from '@eventide/contract/problems.ts';

export const FLOW_COOKIE = 'eventide.oauth';
const FLOW_TTL_MS = 10 * 60_000;
const random = () => randomBytes(32).toString('base64url');

export interface Flow {
  /** Names the mark that the flow has completed. */
  id: string;
  provider: string;
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  returnTo: string;
  /** Set when a signed-in user links this provider to their account. */
  linkUserId?: string | undefined;
  /** When it stops being accepted, ms since the epoch. */
  expiresAt: number;
}

export function newFlow(provider: string, redirectUri: string, returnTo: string, linkUserId: string | undefined, now = Date.now()): Flow {
  return {
    id: random(),
    provider,
    state: random(),
    codeVerifier: random(),
    nonce: random(),
    redirectUri,
    returnTo,
    linkUserId,
    expiresAt: now + FLOW_TTL_MS,
  };
}

export const codeChallengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Seals flows into cookies and opens them: only this deployment (its session secret) can do either. */
export interface FlowSeal {
  seal(flow: Flow): string;
  open(sealed: string): Flow | undefined;
}

export function flowSeal(sessionSecret: string): FlowSeal {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(sessionSecret, 'base64'), Buffer.alloc(0), 'eventide oauth flow', 32));
  return {
    seal(flow) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      try {
        const bytes = Buffer.from(sealed, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as Flow;
      } catch {
        // Forged, altered or sealed under another secret: no flow.
        return undefined;
      }
    },
  };
}

const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/auth', overwrite: true } as const;
const usedKey = (flow: Flow) => `oauth-flow-used:${flow.id}`;

export function beginFlow(ctx: Context, seal: FlowSeal, flow: Flow): void {
  ctx.cookies.set(FLOW_COOKIE, seal.seal(flow), { ...cookieOptions, maxAge: FLOW_TTL_MS });
}

/** The flow this browser started, if it has not completed yet; then the state must match. */
export async function takeFlow(ctx: Context, seal: FlowSeal, store: SessionStore, state: string | undefined): Promise<Flow> {
  const sealed = ctx.cookies.get(FLOW_COOKIE);
  ctx.cookies.set(FLOW_COOKIE, '', { ...cookieOptions, maxAge: 0 });
  const flow = sealed ? seal.open(sealed) : undefined;
  if (!flow || flow.expiresAt <= Date.now()) {
    throw problems.invalidField('state', 'no sign-in was started in this browser, or it took longer than 10 minutes');
  }
  if (await store.get(usedKey(flow))) throw problems.invalidField('state', 'this sign-in has already been completed; start again');
  if (!state || !equal(state, flow.state)) throw problems.invalidField('state', 'does not match the sign-in started in this browser');
  return flow;
}

/**
 * Marks the flow completed, once the provider has answered for it: a replay of its callback is then
 * refused before it asks the provider anything. Kept until the flow would have expired anyway.
 */
export async function completeFlow(store: SessionStore, flow: Flow): Promise<void> {
  await store.set(usedKey(flow), { data: {} }, Math.max(1, flow.expiresAt - Date.now()));
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A same-origin path to return to after sign-in: "/", "/orders?x=1"; never another origin. */
export function safeReturnTo(value: string | undefined): string {
  if (value === undefined || value === '') return '/';
  const base = 'http://same.invalid';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a return path with control characters is refused
  const plain = /^\/(?![/\\])[^\u0000-\u001f\u007f\\]*$/.test(value) && value.length <= 2048;
  if (!plain || new URL(value, base).origin !== base) {
    throw problems.invalidField('returnTo', 'must be a path on this site, such as /orders');
  }
  return value;
}
