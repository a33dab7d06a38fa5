// Paging parameters of the read side, as strict query strings (parseQuery) take them.
import { z } from 'zod';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'must be a positive whole number')
    .transform(Number)
    .refine((n) => n <= max, `must be at most ${max}`);

export const MAX_PAGE = 1_000_000;
export const page = positiveInt(MAX_PAGE);
export const limit = positiveInt(MAX_LIMIT);
