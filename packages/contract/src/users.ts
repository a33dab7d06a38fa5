// The user endpoints' shapes: what the command service validates, what the query service and the
// command service answer (v2 and the deprecated v1), the typed client and the OpenAPI document.
import { z } from 'zod';
import { text } from './text.ts';
import { password } from './password.ts';
import { timestamps } from './common.ts';
import { limit, page } from './paging.ts';

export const userName = text({ min: 1, max: 200 });
export const email = z.email('must be an email address').max(254, 'must be at most 254 characters');
export const profile = z.strictObject({ name: userName, email });
/** Sign-up may choose a password; it goes to the private account stream, never to user:created. */
export const signUpBody = profile.extend({ password: password.optional() });
export const userChanges = profile.partial().refine((c) => Object.keys(c).length > 0, 'send at least one of: name, email');

export const userListQuery = z.strictObject({ page: page.optional(), limit: limit.optional() });

/** Null in the answer to a deletion: a deleted user keeps nothing personal (docs/privacy.md). */
const personal = z.string().nullable();
export const userV2Body = z.strictObject({ userId: z.string(), name: personal, email: personal, ...timestamps });
export const userV1Body = z.strictObject({ userId: z.string(), name: personal, email: personal });
export type UserV2 = z.infer<typeof userV2Body>;
export type UserV1 = z.infer<typeof userV1Body>;
