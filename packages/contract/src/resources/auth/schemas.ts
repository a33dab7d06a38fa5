// The password sign-in and account endpoints' shapes (see users.ts for who uses them).
import { z } from 'zod';
import { password, passwordToCheck } from './password.ts';
import { userV2Body } from '../users/schemas.ts';

/** The httpOnly cookie that carries a session (auth/session.ts sets it; the OpenAPI document names it). */
export const SESSION_COOKIE = 'eventide.sid';

export const signInBody = z.strictObject({ email: z.string().max(254, 'must be at most 254 characters'), password: passwordToCheck });
export const passwordBody = z.strictObject({ currentPassword: passwordToCheck.optional(), password });

/** GET /auth/session, and the answer to a sign-in. */
export const sessionBody = z.strictObject({
  userId: z.string(),
  roles: z.array(z.string()),
  signedInAt: z.iso.datetime(),
  /** When it ends unless used before then. */
  expiresAt: z.iso.datetime(),
  /** When it ends however busy. */
  absoluteExpiresAt: z.iso.datetime(),
  user: userV2Body.nullable(),
  signInMethods: z.strictObject({ password: z.boolean(), providers: z.array(z.string()) }),
});
export type SessionBody = z.infer<typeof sessionBody>;

/** GET /auth/providers: the identity providers configured, by the names their paths use. */
export const providersBody = z.strictObject({ providers: z.array(z.strictObject({ name: z.string() })) });
export type ProvidersBody = z.infer<typeof providersBody>;

/** POST /auth/{provider}/link asked for JSON: where to send the browser. */
export const providerLocationBody = z.strictObject({ location: z.url() });
