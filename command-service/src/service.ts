// The command service as one part of a process (packages/runtime/src/compose.ts): its write
// operations and sign-in, on the platform's event store and sessions, and the deadlines that act
// on the write side by themselves (deadlines/).
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { addAccountSections } from './account/personal-data.ts';
import { commandHandlers } from './handlers.ts';
import { flowSeal } from './oauth/flow.ts';
import { loadProviders } from './oauth/providers.ts';
import { writeSide } from './write-side.ts';
import { startDeadlines } from './deadlines/deadlines.ts';
import { followersProbe } from '@eventide/runtime/followers/health.ts';

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
    const schedule = await platform.deadlines();
    const deadlines = startDeadlines({
      eventStore: events.store,
      schedule: schedule.store,
      checkpoints: read.store,
      parked,
      clock: platform.clock,
      policy: { windowMs: config.PAYMENT_WINDOW_SECONDS * 1000, reminderMs: config.PAYMENT_REMINDER_SECONDS * 1000 },
      log: platform.log,
    });
    const deadlinesProbe = followersProbe({
      followers: ['deadlines'],
      events: events.store,
      parked,
      activeGeneration: () => read.store.activeGeneration(),
      positions: () => ({ deadlinesAt: deadlines.follower.position() }),
      maxStallSeconds: config.READY_MAX_STALL_SECONDS,
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
          { store: events.store, webhooks: (await platform.webhooks()).store, clock: platform.clock, config },
          (await platform.images()).store,
        ),
      },
      // The schedule answers, and the follower neither parked an event nor stalled.
      probes: () => [
        {
          name: 'deadlines',
          async check() {
            await schedule.store.earliest();
            return deadlinesProbe.check();
          },
        },
      ],
      health: () => ({
        eventStore: events.description,
        auth: auth.description,
        deadlines: schedule.description,
        deadlinesAt: deadlines.follower.position(),
      }),
      close: () => deadlines.stop(),
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
