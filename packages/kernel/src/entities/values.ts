// Values more than one entity holds, as events store them.
import { z } from 'zod';

/** Money in integer minor units (cents), so that no total ever suffers binary rounding. */
export const money = z.strictObject({
  amount: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals, such as EUR'),
});
export type Money = z.infer<typeof money>;

/** An entity's id as its events carry it. */
export const entityId = z.string().min(1);
