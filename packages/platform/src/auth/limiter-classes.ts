// rate-limiter-flexible's classes, each required from its own file: the package's index requires
// all two dozen of its limiters and their stores' helpers (36 modules, 30 ms of a start on two
// cores, 2026-11-30), where a process counts in memory and in at most one shared store. The package
// has no exports map, so its files may be required by path; an upgrade that moved them would fail
// every start at once, not quietly. The index re-exports these same modules, so `instanceof` holds
// whichever way a class was loaded.
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

// Named `require`, and each path written out, so that what reads the packages a file names finds them.
const require = createRequire(import.meta.url);

export const RateLimiterMemory: typeof Flexible.RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory.js');
export type RateLimiterMemory = Flexible.RateLimiterMemory;
export const RateLimiterRes: typeof Flexible.RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js');
export type RateLimiterRes = Flexible.RateLimiterRes;
export const RateLimiterQueue: typeof Flexible.RateLimiterQueue = require('rate-limiter-flexible/lib/RateLimiterQueue.js');
export type RateLimiterQueue = Flexible.RateLimiterQueue;
export type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** The limiter of each shared store, loaded when a process counts there (rate-limit.ts). */
export const storeLimiters = {
  mongo: (): typeof Flexible.RateLimiterMongo => require('rate-limiter-flexible/lib/RateLimiterMongo.js'),
  postgres: (): typeof Flexible.RateLimiterPostgres => require('rate-limiter-flexible/lib/RateLimiterPostgres.js'),
  redis: (): typeof Flexible.RateLimiterRedis => require('rate-limiter-flexible/lib/RateLimiterRedis.js'),
};
