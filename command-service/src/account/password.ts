// The password a person chooses (sign-up, PUT /auth/password): long enough to resist guessing,
// bounded so that hashing it cannot be turned into a denial of service.
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@eventide/shared/auth/password.ts';

export const password = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);
