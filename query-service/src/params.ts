// Query strings, strictly: every parameter must be known, given once, and well-formed. Anything
// else (a repeated parameter, `q[$regex]=…`, `page=0`) is a 400 that names it.
import type { Context } from 'koa';
import { z } from 'zod';
import { problems } from '@eventide/shared/http/problem.ts';
import { validate } from '@eventide/shared/http/validate.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const positiveInt = (name: string, max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, `${name} must be a positive whole number`)
    .transform(Number)
    .refine((n) => n <= max, `${name} must be at most ${max}`);

export const page = positiveInt('page', 1_000_000);
export const limit = positiveInt('limit', MAX_LIMIT);

/** The query parameters, each once, checked by `shape` (a strict object, so unknown ones are refused). */
export function parseQuery<S extends z.ZodType>(ctx: Context, shape: S): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw problems.invalidField(name, `give ${name} once, not ${value.length} times`);
    raw[name] = value ?? '';
  }
  return validate(shape, raw, '');
}
