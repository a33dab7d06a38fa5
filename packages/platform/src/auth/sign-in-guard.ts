// Brute-force protection for password sign-in, two counters of failures:
// - per account and address: after `failuresPerAccount` consecutive failures, that pair is
//   refused for `blockSeconds`, even with the right password; a success clears the count;
// - per address per day: a slow guess across many accounts is refused for the rest of the day.
//
// Every attempt is counted as a failure before its password is checked, in one atomic step of
// the limiter, and a success takes its count back. Checking first and counting after would let
// a burst of concurrent guesses all pass the check before any of them is counted.
import type { RateLimiterAbstract, RateLimiterRes } from './limiter-classes.ts';
import { problems } from '@eventide/contract/problems.ts';
import { addressKey } from './client-address.ts';
import { limitHeaders, spend, type LimiterFactory, type LimitSpec } from './rate-limit.ts';

export interface SignInGuardOptions {
  failuresPerAccount: number;
  blockSeconds: number;
  failuresPerAddressPerDay: number;
}

export interface SignInAttempt {
  /** The password was right: the account's failures are cleared and the address's point returned. */
  succeeded(): Promise<void>;
}

export interface SignInGuard {
  /** Counts an attempt for the account from the address; throws 429 when either is over its limit. */
  attempt(account: string, address: string): Promise<SignInAttempt>;
}

const DAY = 86_400;

export function signInGuard(limiters: LimiterFactory, options: SignInGuardOptions): SignInGuard {
  // The window for consecutive failures is a day; going over the limit blocks for blockSeconds.
  const perAccount: LimitSpec = {
    name: 'sign-in-account',
    points: options.failuresPerAccount,
    duration: DAY,
    blockDuration: options.blockSeconds,
  };
  const perAddress: LimitSpec = { name: 'sign-in-address', points: options.failuresPerAddressPerDay, duration: DAY, blockDuration: DAY };
  const accountLimiter = limiters(perAccount);
  const addressLimiter = limiters(perAddress);

  function refuse(spec: LimitSpec, res: RateLimiterRes, what: string): never {
    throw problems.tooManyRequests(`too many failed sign-ins ${what}; try again later`, limitHeaders(spec, res, true));
  }
  const giveBack = (limiter: RateLimiterAbstract, key: string) => limiter.reward(key, 1);

  return {
    async attempt(account, address) {
      const client = addressKey(address);
      const pair = `${account}|${client}`;
      const [byPair, byAddress] = await Promise.all([spend(accountLimiter, pair), spend(addressLimiter, client)]);
      if (!byPair.ok || !byAddress.ok) {
        // A refused attempt checks nothing, so it is no failure on the other counter.
        if (byPair.ok) await giveBack(accountLimiter, pair);
        if (byAddress.ok) await giveBack(addressLimiter, client);
        if (!byPair.ok) refuse(perAccount, byPair.res, 'for this account from this address');
        refuse(perAddress, byAddress.res, 'from this address today');
      }
      return {
        async succeeded() {
          await Promise.all([accountLimiter.delete(pair), giveBack(addressLimiter, client)]);
        },
      };
    },
  };
}
