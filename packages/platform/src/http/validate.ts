// zod failures as 400 problems that name each field.
import type { z } from 'zod';
import { problems, type FieldError } from '@eventide/contract/problems.ts';

function fieldName(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  const joined = path.map(String).join('.');
  if (prefix && joined) return `${prefix}.${joined}`;
  return prefix || joined || '(body)';
}

export function fieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: fieldName(prefix, [...issue.path, key]), message: 'is not a known field' }));
    }
    const missing = issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
    return [{ field: fieldName(prefix, issue.path), message: missing ? 'is required' : issue.message }];
  });
}

/** Parses or throws a 400 naming every bad field; `prefix` names where the input came from. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, prefix: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw problems.invalid(fieldErrors(result.error, prefix));
  return result.data;
}
