// The command service's public entry: everything that writes as the API does, for the callers
// that are not requests (the admin command line, the seed, tests) and for the service's own
// handlers. Another package imports this file, never the folders behind it.
import { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { LimiterFactory } from '@eventide/platform/auth/rate-limit.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import { signInGuard } from '@eventide/platform/auth/sign-in-guard.ts';
import type { Config } from '@eventide/kernel/config.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { identity } from './identity/identity.ts';
import { orderCommands } from './order/orders.ts';
import { productCommands } from './product/products.ts';

export type { Caller } from './caller.ts';
export type { Identity } from './identity/identity.ts';
export type { CommandOptions, WriteResult } from './handle.ts';
export type { RequestedLine } from './order/pricing.ts';

export interface WriteSideDeps {
  config: Pick<
    Config,
    'SIGNIN_FAILURES_PER_ACCOUNT' | 'SIGNIN_BLOCK_SECONDS' | 'SIGNIN_FAILURES_PER_ADDRESS_PER_DAY' | 'PASSWORD_HASHES_AT_ONCE'
  >;
  store: EventStore;
  /** Where the keys that seal personal data are: its keyed hash names claim streams; erasing a user destroys theirs. */
  keys: KeyStore;
  /** The platform's sessions and limits: erasure and role changes end sessions; sign-ins are counted. */
  auth: { sessions: SessionStore; limiters: LimiterFactory };
  /** Replaces the password hasher (tests: cheaper parameters, or one held at a gate). */
  hasher?: PasswordHasher | undefined;
  now?: () => Date;
}

export function writeSide({ config, store, keys, auth, hasher, now }: WriteSideDeps) {
  const guard = signInGuard(auth.limiters, {
    failuresPerAccount: config.SIGNIN_FAILURES_PER_ACCOUNT,
    blockSeconds: config.SIGNIN_BLOCK_SECONDS,
    failuresPerAddressPerDay: config.SIGNIN_FAILURES_PER_ADDRESS_PER_DAY,
  });
  return {
    identity: identity({
      store,
      keys,
      sessions: auth.sessions,
      hasher: hasher ?? new PasswordHasher(config.PASSWORD_HASHES_AT_ONCE ? { concurrency: config.PASSWORD_HASHES_AT_ONCE } : {}),
      guard,
      ...(now ? { now } : {}),
    }),
    products: productCommands(store),
    orders: orderCommands(store),
  };
}

export type WriteSide = ReturnType<typeof writeSide>;
