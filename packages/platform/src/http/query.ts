// Query strings, strictly: every parameter must be known, given once, and well-formed. Anything
// else (a repeated parameter, `q[$regex]=…`, `page=0`) is a 400 that names it.
import type { Context } from 'koa';
import type { z } from 'zod';
import { problems } from '@eventide/contract/problems.ts';
import { validate } from './validate.ts';

/** The query parameters, each once, checked by `shape` (a strict object, so unknown ones are refused). */
export function parseQuery<S extends z.ZodType>(ctx: Context, shape: S, prefix = ''): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    const field = prefix ? `${prefix}.${name}` : name;
    if (Array.isArray(value)) throw problems.invalidField(field, `give ${name} once, not ${value.length} times`);
    raw[name] = value ?? '';
  }
  return validate(shape, raw, prefix);
}
