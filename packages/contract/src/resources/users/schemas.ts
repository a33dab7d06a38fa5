// The user endpoints' shapes: what the command service validates, what the query service and the
// command service answer (v2 and the deprecated v1), the typed client and the OpenAPI document;
// from the user's declaration.
import { z } from 'zod';
import { USER } from '@eventide/kernel/entities/user.ts';
import { password } from '../auth/password.ts';
import { bodyOf } from '../../entities.ts';
import { limit, page } from '../../paging.ts';

export const userName = USER.details.name.accepted;
export const email = USER.details.email.accepted;
export const profile = USER.createInput;
/** Sign-up may choose a password; it goes to the private account stream, never to user:created. */
export const signUpBody = profile.extend({ password: password.optional() });
export const userChanges = USER.changesInput;

export const userListQuery = z.strictObject({ page: page.optional(), limit: limit.optional() });

/** Its details are null in the answer to a deletion: a deleted user keeps nothing personal (docs/privacy.md). */
export const userV2Body = bodyOf(USER);
/** Deprecated: no timestamps and no version. */
export const userV1Body = userV2Body.omit({ createdAt: true, updatedAt: true, deletedAt: true, version: true });
export type UserV2 = z.infer<typeof userV2Body>;
export type UserV1 = z.infer<typeof userV1Body>;
