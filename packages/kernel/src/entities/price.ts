// A price as the API takes it. Stricter than what a product:created event may carry (events
// recorded before these rules stay valid): the currency must be one ISO 4217 knows, and the
// amount small enough that an order's total (100 lines of up to 10,000 each) is still an exact
// integer in JavaScript and JSON.
import { z } from 'zod';

/** The largest price in minor units: 100 lines x 10,000 x this stays below 2^53. */
export const MAX_PRICE_AMOUNT = 9_000_000_000;

const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

export const price = z.strictObject({
  amount: z
    .number({ message: 'must be a number' })
    .int('must be a whole number of minor units (cents for EUR)')
    .min(0, 'must be 0 or more')
    .max(MAX_PRICE_AMOUNT, `must be at most ${MAX_PRICE_AMOUNT} minor units`),
  currency: z
    .string({ message: 'must be a string' })
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals, such as EUR')
    .refine((code) => ISO_4217.has(code), 'is not an ISO 4217 currency code'),
});

/**
 * The tax a price includes, in percent of the price before tax (20 for 20 %, 5.5 for 5.5 %), as a
 * product states it; null (the default) when it does not. At most two decimals: the rates tax
 * authorities set.
 */
export const taxRate = z
  .number({ message: 'must be a number of percent, such as 20 or 5.5' })
  .min(0, 'must be 0 or more')
  .max(100, 'must be at most 100 (percent)')
  .refine(
    (rate) => Number.isInteger(Math.round(rate * 100)) && Math.abs(rate * 100 - Math.round(rate * 100)) < 1e-9,
    'must have at most two decimals',
  )
  .nullable();
