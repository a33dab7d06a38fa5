// The state of one OAuth sign-in between the redirect to the provider and its callback. It is
// kept on the server (10 minutes, taken once) under a random id that only this browser holds,
// in a signed, httpOnly cookie scoped to /auth: a callback from another browser, or a second
// one, finds nothing. It carries the PKCE verifier, the nonce and where to go afterwards.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { SessionStore } from '@eventide/shared/auth/session-store/port.ts';
import { problems } from '@eventide/shared/http/problem.ts';

export const FLOW_COOKIE = 'eventide.oauth';
const FLOW_TTL_MS = 10 * 60_000;
const random = () => randomBytes(32).toString('base64url');

export interface Flow {
  provider: string;
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  returnTo: string;
  /** Set when a signed-in user links this provider to their account. */
  linkUserId?: string | undefined;
}

export function newFlow(provider: string, redirectUri: string, returnTo: string, linkUserId?: string): Flow {
  return { provider, state: random(), codeVerifier: random(), nonce: random(), redirectUri, returnTo, linkUserId };
}

export const codeChallengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const cookieOptions = { httpOnly: true, sameSite: 'lax', signed: true, path: '/auth', overwrite: true } as const;

export async function beginFlow(ctx: Context, store: SessionStore, flow: Flow): Promise<void> {
  const id = random();
  await store.set(`oauth-flow:${id}`, { data: { ...flow } }, FLOW_TTL_MS);
  ctx.cookies.set(FLOW_COOKIE, id, { ...cookieOptions, maxAge: FLOW_TTL_MS });
}

/** The flow this browser started, taken so it cannot be used twice; then the state must match. */
export async function takeFlow(ctx: Context, store: SessionStore, state: string | undefined): Promise<Flow> {
  const id = ctx.cookies.get(FLOW_COOKIE, { signed: true });
  ctx.cookies.set(FLOW_COOKIE, '', { ...cookieOptions, maxAge: 0 });
  if (!id) throw problems.invalidField('state', 'no sign-in was started in this browser, or it took longer than 10 minutes');
  const record = await store.take(`oauth-flow:${id}`);
  if (!record) throw problems.invalidField('state', 'this sign-in has already been completed or has expired; start again');
  const flow = record.data as unknown as Flow;
  if (!state || !equal(state, flow.state)) throw problems.invalidField('state', 'does not match the sign-in started in this browser');
  return flow;
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
