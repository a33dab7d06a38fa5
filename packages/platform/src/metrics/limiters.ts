// Rate limiters that count their refusals (rate_limit_refusals_total{limit}), whoever asks them:
// the HTTP limits, the sign-in guard and collaborative editing's share lookups alike (its
// per-connection pacing of messages and ops has limiters of its own, not counted here).
import type { Counter } from 'prom-client';
import { RateLimiterRes } from '../auth/limiter-classes.ts';
import type { LimiterFactory } from '../auth/rate-limit.ts';

export function meteredLimiters(limiters: LimiterFactory, refusals: Counter<'limit'>): LimiterFactory {
  return (spec) => {
    const limiter = limiters(spec);
    const consume = limiter.consume.bind(limiter);
    limiter.consume = async (...args: Parameters<typeof consume>) => {
      try {
        return await consume(...args);
      } catch (error) {
        // rate-limiter-flexible rejects with the limit's state when the points are spent.
        if (error instanceof RateLimiterRes) refusals.inc({ limit: spec.name });
        throw error;
      }
    };
    return limiter;
  };
}
