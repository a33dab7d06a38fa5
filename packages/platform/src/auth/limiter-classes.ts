// rate-limiter-flexible's classes, each required from its own file: the package's index requires
// all two dozen of its limiters and their stores' helpers (36 modules, 30 ms of a start on two
// cores, 2026-11-30), where a process counts in memory and in at most one shared store. The package
// has no exports map, so its files may be required by path; an upgrade that moved them would fail
// every start at once, not quietly. The index re-exports these same modules, so `instanceof` holds
// whichever way a class was loaded.
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

const load = createRequire(import.meta.url);
const limiterFile = (name: string) => `rate-limiter-flexible/lib/${name}.js`;

export const RateLimiterMemory: typeof Flexible.RateLimiterMemory = load(limiterFile('RateLimiterMemory'));
export type RateLimiterMemory = Flexible.RateLimiterMemory;
export const RateLimiterRes: typeof Flexible.RateLimiterRes = load(limiterFile('RateLimiterRes'));
export type RateLimiterRes = Flexible.RateLimiterRes;
export const RateLimiterQueue: typeof Flexible.RateLimiterQueue = load(limiterFile('RateLimiterQueue'));
export type RateLimiterQueue = Flexible.RateLimiterQueue;
export type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** The limiter of each shared store, loaded when a process counts there (rate-limit.ts). */
export const storeLimiters = {
  mongo: (): typeof Flexible.RateLimiterMongo => load(limiterFile('RateLimiterMongo')),
  postgres: (): typeof Flexible.RateLimiterPostgres => load(limiterFile('RateLimiterPostgres')),
  redis: (): typeof Flexible.RateLimiterRedis => load(limiterFile('RateLimiterRedis')),
};
