// The command service as one part of a process (shared/src/service/compose.ts): its write
// routes and sign-in, on the platform's event store and sessions.
import { PasswordHasher } from '@eventide/shared/auth/hasher.ts';
import type { OpenedAuth } from '@eventide/shared/auth/open.ts';
import type { Config } from '@eventide/shared/config.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Service, ServiceFactory } from '@eventide/shared/service/compose.ts';
import type { AuthDeps } from './account/deps.ts';
import { addAccountSections } from './account/personal-data.ts';
import { loadProviders } from './oauth/providers.ts';
import { commandHandlers } from './handlers.ts';

export interface CommandService extends Service {
  store: EventStore;
  auth: OpenedAuth;
}

export interface CommandServiceOptions {
  /** Replaces the password hasher (tests: cheaper parameters, or one held at a gate). */
  hasher?: PasswordHasher;
}

function authDeps(config: Config, auth: OpenedAuth, hasher: PasswordHasher | undefined): AuthDeps {
  return {
    sessions: auth.sessions.store,
    limiters: auth.limiters,
    signIn: {
      failuresPerAccount: config.SIGNIN_FAILURES_PER_ACCOUNT,
      blockSeconds: config.SIGNIN_BLOCK_SECONDS,
      failuresPerAddressPerDay: config.SIGNIN_FAILURES_PER_ADDRESS_PER_DAY,
    },
    hasher: hasher ?? new PasswordHasher(config.PASSWORD_HASHES_AT_ONCE ? { concurrency: config.PASSWORD_HASHES_AT_ONCE } : {}),
  };
}

export function commandService(options: CommandServiceOptions = {}): ServiceFactory<CommandService> {
  return async (platform) => {
    const { config } = platform;
    const providers = loadProviders(config.AUTH_PROVIDERS);
    const auth = await platform.auth();
    const events = await platform.eventStore();
    addAccountSections(platform.personalData, events.store);
    return {
      store: events.store,
      auth,
      api: {
        service: 'command' as const,
        handlers: commandHandlers({
          store: events.store,
          keys: events.keys,
          auth: authDeps(config, auth, options.hasher),
          oauth: { sessions: auth.sessions.store, providers, publicOrigin: config.PUBLIC_ORIGIN },
        }),
      },
      health: () => ({ eventStore: events.description, auth: auth.description }),
      close: async () => undefined,
    };
  };
}
