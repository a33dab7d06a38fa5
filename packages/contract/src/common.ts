// Shapes every resource shares: timestamps and version, pages, and the problem document.
import { z } from 'zod';

export const timestamps = {
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Only on a deleted entity (read with ?includeDeleted or as a DELETE's answer). */
  deletedAt: z.iso.datetime().optional(),
  /** The entity's revision: its ETag. */
  version: z.number().int().min(0),
};

export const fieldError = z.object({ field: z.string(), message: z.string() });

/** RFC 9457, as every refusal and failure is answered (docs/errors.md). */
export const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  errors: z.array(fieldError).optional(),
  /** The request's correlation id, as in its X-Correlation-Id header and every log line about it (docs/errors.md). */
  correlationId: z.string().optional(),
});

export const offsetPageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ items: z.array(item), page: z.number().int(), limit: z.number().int(), total: z.number().int() });

export const cursorPageOf = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
