// AuthDeps from configuration and the opened session store and limiters.
import { PasswordHasher } from '@eventide/shared/auth/hasher.ts';
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
    signUpsPerHour: config.RATE_LIMIT_SIGN_UPS_PER_HOUR,
    emailChangesPerHour: config.RATE_LIMIT_EMAIL_CHANGES_PER_HOUR,
    hasher: new PasswordHasher(config.PASSWORD_HASHES_AT_ONCE ? { concurrency: config.PASSWORD_HASHES_AT_ONCE } : {}),
    providers: loadProviders(config.AUTH_PROVIDERS),
    publicOrigin: config.PUBLIC_ORIGIN,
  };
}
