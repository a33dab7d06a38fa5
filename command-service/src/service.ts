// The command service as one part of a process (packages/runtime/src/compose.ts): its write
// operations and sign-in, on the platform's event store and sessions.
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { addAccountSections } from './account/personal-data.ts';
import { commandHandlers } from './handlers.ts';
import { flowSeal } from './oauth/flow.ts';
import { loadProviders } from './oauth/providers.ts';
import { writeSide } from './write-side.ts';

export interface CommandService extends Service {
  store: EventStore;
  auth: OpenedAuth;
}

export interface CommandServiceOptions {
  /** Replaces the password hasher (tests: cheaper parameters, or one held at a gate). */
  hasher?: PasswordHasher;
}

export function commandService(options: CommandServiceOptions = {}): ServiceFactory<CommandService> {
  return async (platform) => {
    const { config } = platform;
    const providers = loadProviders(config.AUTH_PROVIDERS);
    const auth = await platform.auth();
    const events = await platform.eventStore();
    addAccountSections(platform.personalData, events.store);
    const parked = (await platform.parked()).store;
    const read = await platform.readModels();
    const writes = writeSide({
      config,
      store: events.store,
      keys: events.keys,
      auth: { sessions: auth.sessions.store, limiters: auth.limiters },
      hasher: options.hasher,
    });
    return {
      store: events.store,
      auth,
      api: {
        service: 'command' as const,
        handlers: commandHandlers(
          events.store,
          writes,
          {
            sessions: auth.sessions.store,
            seal: flowSeal(auth.sessions.keys[0]!),
            providers,
            publicOrigin: config.PUBLIC_ORIGIN,
          },
          { store: events.store, parked, activeGeneration: () => read.store.activeGeneration() },
        ),
      },
      health: () => ({ eventStore: events.description, auth: auth.description }),
      close: async () => undefined,
    };
  };
}

/**
 * The command side's part of a person's export alone (how they sign in), for a process that
 * serves exports without the command service (the site process of a split deployment: infra/src/site.ts).
 */
export function commandPersonalData(): ServiceFactory<Service> {
  return async ({ eventStore, personalData }) => {
    const events = await eventStore();
    addAccountSections(personalData, events.store);
    return { health: () => ({ commandSections: events.description }), close: async () => undefined };
  };
}
