// The password a person chooses (sign-up, PUT /auth/password): long enough to resist guessing,
// bounded so that hashing it cannot be turned into a denial of service.
import { z } from 'zod';
import { characters } from '@eventide/kernel/characters.ts';

/** In characters (code points). Long enough for passphrases; bounded so that hashing cannot be turned into a denial of service. */
export const PASSWORD_MAX = 1024;
export const PASSWORD_MIN = 8;

/** Any characters (spaces and all), counted as code points; not trimmed: every one is part of it. */
export const password = z
  .string()
  .refine((p) => characters(p) >= PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .refine((p) => characters(p) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

/** A password being checked (sign-in, current password): only bounded, so that checking stays cheap. */
export const passwordToCheck = z.string().refine((p) => characters(p) <= PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);
