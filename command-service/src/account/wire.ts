// AuthDeps from configuration and the opened session store and limiters.
import type { OpenedAuth } from '@eventide/shared/auth/open.ts';
import type { Config } from '@eventide/shared/config.ts';
import { loadProviders } from '../oauth/providers.ts';
import type { AuthDeps } from './deps.ts';

export function authDeps(config: Config, auth: OpenedAuth): AuthDeps {
  return {
    sessions: auth.sessions.store,
    limiters: auth.limiters,
    signIn: {
      failuresPerAccount: config.SIGNIN_FAILURES_PER_ACCOUNT,
      blockSeconds: config.SIGNIN_BLOCK_SECONDS,
      failuresPerAddressPerDay: config.SIGNIN_FAILURES_PER_ADDRESS_PER_DAY,
    },
    profilePerSecond: config.RATE_LIMIT_PROFILE_PER_SECOND,
    providers: loadProviders(config.AUTH_PROVIDERS),
    publicOrigin: config.PUBLIC_ORIGIN,
  };
}
