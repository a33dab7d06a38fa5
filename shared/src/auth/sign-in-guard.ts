// Brute-force protection for password sign-in, two counters of failures:
// - per account and address: after `failuresPerAccount` consecutive failures, that pair is
//   refused for `blockSeconds`, even with the right password; a success clears the count;
// - per address per day: a slow guess across many accounts is refused for the rest of the day.
// Only failures count, so a user who signs in often is never limited.
import { RateLimiterRes } from 'rate-limiter-flexible';
import { problems } from '../http/problem.ts';
import { limitHeaders, type LimiterFactory, type LimitSpec } from './rate-limit.ts';

export interface SignInGuardOptions {
  failuresPerAccount: number;
  blockSeconds: number;
  failuresPerAddressPerDay: number;
}

export interface SignInGuard {
  /** Throws 429 while the account and address, or the address, are blocked. */
  check(account: string, address: string): Promise<void>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string, address: string): Promise<void>;
}

const DAY = 86_400;

export function signInGuard(limiters: LimiterFactory, options: SignInGuardOptions): SignInGuard {
  // The window for consecutive failures is a day; a block replaces it with blockSeconds.
  const perAccount: LimitSpec = { name: 'sign-in-account', points: options.failuresPerAccount, duration: DAY };
  const perAddress: LimitSpec = { name: 'sign-in-address', points: options.failuresPerAddressPerDay, duration: DAY, blockDuration: DAY };
  const accountLimiter = limiters(perAccount);
  const addressLimiter = limiters(perAddress);
  const pair = (account: string, address: string) => `${account}|${address}`;

  function refuse(spec: LimitSpec, res: RateLimiterRes, what: string): never {
    throw problems.tooManyRequests(`too many failed sign-ins ${what}; try again later`, limitHeaders(spec, res, true));
  }

  return {
    async check(account, address) {
      const [byPair, byAddress] = await Promise.all([accountLimiter.get(pair(account, address)), addressLimiter.get(address)]);
      if (byPair && byPair.consumedPoints >= perAccount.points) refuse(perAccount, byPair, 'for this account from this address');
      if (byAddress && byAddress.consumedPoints >= perAddress.points) refuse(perAddress, byAddress, 'from this address today');
    },
    async failed(account, address) {
      const key = pair(account, address);
      const spend = async (limiter: typeof accountLimiter, k: string) => {
        try {
          return await limiter.consume(k);
        } catch (error) {
          if (error instanceof RateLimiterRes) return error;
          throw error;
        }
      };
      const [byPair] = await Promise.all([spend(accountLimiter, key), spend(addressLimiter, address)]);
      // The limit-th failure starts the block, so the next attempt is refused whatever it sends.
      if (byPair.consumedPoints >= perAccount.points) await accountLimiter.block(key, options.blockSeconds);
    },
    async succeeded(account, address) {
      await accountLimiter.delete(pair(account, address));
    },
  };
}
