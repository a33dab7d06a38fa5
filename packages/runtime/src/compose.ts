// Every service has the same shape, and one function puts any set of them in one process:
// `npm start` (all of them), each `npm run start:*` (one) and the tests' harnesses. The
// adapters are opened here, from configuration, once per process and only when a service asks
// for them, and closed here after the services that use them.
import type { Server } from 'node:http';
import type { AuthOptions, OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { Config } from '@eventide/kernel/config.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import type { ServiceApi } from '@eventide/platform/http/mount.ts';
import type { OpenedEventStore } from '@eventide/stores/personal-data/open.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { ReadModels } from '@eventide/stores/read-models/open.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { DeadlineSchedule } from '@eventide/stores/deadlines/port.ts';
import type { WebhookStore } from '@eventide/stores/webhooks/port.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import { openClock, type Clock } from '@eventide/kernel/clock.ts';
import type { Upcasters } from '@eventide/kernel/events/versions.ts';
import { personalDataSections, type PersonalDataSections } from './export-sections.ts';
import { adapterProbes, readiness, type Probe } from './readiness.ts';
import type { Readiness } from '@eventide/contract/resources/site/health.ts';
import { createMetrics, type Metrics } from '@eventide/platform/metrics/metrics.ts';
import { meteredEventStore } from '@eventide/platform/metrics/event-store.ts';
import { meteredLimiters } from '@eventide/platform/metrics/limiters.ts';
import { oneCounterPerName, type LimiterFactory } from '@eventide/platform/auth/rate-limit.ts';
import { tracedEventStore } from '@eventide/stores/tracing/event-spans.ts';

export interface Service {
  /** The operations of the route table this service serves, by name (http/mount.ts); none for a follower. */
  api?: ServiceApi;
  /** What GET /health says of this service (which adapters, how far it got). */
  health(): Record<string, unknown>;
  /** What GET /health/ready asks of this service's own stores, beside the platform's adapters. */
  probes?(): Probe[];
  /** Called once the HTTP server listens, for what attaches to it (the collab WebSocket). */
  attach?(server: Server): void;
  /** Ends long-lived connections, so that the HTTP drain at shutdown need not wait for them. */
  disconnect?(): Promise<void>;
  /** Stops the service's own work; the adapters it was given are closed after it. */
  close(): Promise<void>;
}

export interface Opened<Store> {
  store: Store;
  description: string;
}

/** What the services of one process share. */
export interface Platform {
  config: Config;
  log: Logger;
  auth(): Promise<OpenedAuth>;
  /** The event store, sealing personal data, with its key store. */
  eventStore(): Promise<OpenedEventStore>;
  /** The read models: the documents and product search, kept in the same writes. */
  readModels(): Promise<ReadModels>;
  /** Kafka when configured, else the in-process bus: where the publisher puts the public events. */
  eventBus(): Promise<Opened<EventBus>>;
  /** The events the followers of the log parked (stores/parked), where the read models are. */
  parked(): Promise<Opened<ParkedEvents>>;
  /** When each process with a deadline looks at it next (stores/deadlines), where the read models are. */
  deadlines(): Promise<Opened<DeadlineSchedule>>;
  /** The webhook endpoints and their deliveries (stores/webhooks), where the read models are. */
  webhooks(): Promise<Opened<WebhookStore>>;
  /** Products' pictures (stores/image-store), where the read models are. */
  images(): Promise<Opened<ImageStore>>;
  /** The time the parts that act on time read: the system's, or moved by TEST_CLOCK_FILE (kernel/clock.ts). */
  clock: Clock;
  /** The projector, when it runs in this process, tells waiting reads at once that it moved. */
  projected: ProgressSignal;
  /** Where each service adds what it holds about a person, for their export (GET /users/{id}/export). */
  personalData: PersonalDataSections;
  /** This process's metrics (GET /metrics on METRICS_PORT): services add their own gauges. */
  metrics: Metrics;
}

export interface ProgressSignal {
  notify(): void;
  subscribe(listener: () => void): () => void;
  /**
   * How often it has been notified so far. A service that starts after the projector has
   * announced (services open in turn) learns from this that there is one, without having heard it.
   */
  notifications(): number;
}

export type ServiceFactory<S extends Service = Service> = (platform: Platform) => Promise<S>;

export interface PlatformOptions {
  config: Config;
  log: Logger;
  auth?: AuthOptions;
  /** What the release knows of each event's versions: this one's, unless a test plays an older or newer release. */
  upcasters?: Upcasters;
  /** Where rate limits count in place of the auth store's: a request thread's are the writing thread's (request-threads/limiters.ts). */
  limiters?: LimiterFactory;
  /** The projector's signal, when another thread relays it (a request thread's); else one of this thread's own. */
  projected?: ProgressSignal;
}

export interface Composition<Services extends Record<string, Service>> {
  platform: Platform;
  services: Services;
  /** What the HTTP app mounts: every service's operations. */
  apis: ServiceApi[];
  health(): Record<string, unknown>;
  /** GET /health/ready: every adapter this process opened, and every service's own stores. */
  ready(): Promise<Readiness>;
  /** Sessions and the Origin check for the HTTP app, when a service opened them. */
  auth: OpenedAuth | undefined;
  attach(server: Server): void;
  disconnect(): Promise<void>;
  close(): Promise<void>;
}

/** The signal a projector in this process announces its progress on (Platform.projected). */
export function progressSignal(): ProgressSignal {
  const listeners = new Set<() => void>();
  let notifications = 0;
  return {
    notify() {
      notifications++;
      for (const listener of listeners) listener();
    },
    notifications: () => notifications,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function once<T>(open: () => T): { get(): T; opened(): T | undefined } {
  let value: T | undefined;
  return {
    get() {
      value ??= open();
      return value;
    },
    opened: () => value,
  };
}

/**
 * How long one round of readiness probes answers every GET /health/ready: however often it is
 * asked (it needs no session), the stores are probed at most once in this time.
 */
const READY_REUSE_MS = 1_000;

/** `work`'s promise, shared by every call made within `ms` of the call that started it. */
function sharedFor<T>(ms: number, work: () => Promise<T>): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ms) last = { at: now, result: work() };
    return last.result;
  };
}

export function openPlatform({ config, log, auth: authOptions = {}, upcasters, limiters, projected }: PlatformOptions) {
  // Imported when first asked for: a process loads only the adapters its services use.
  const metrics = createMetrics();
  const auth = once(async () => {
    const opened = await (await import('@eventide/platform/auth/open.ts')).openAuth(config, { log, ...authOptions });
    return { ...opened, limiters: oneCounterPerName(meteredLimiters(limiters ?? opened.limiters, metrics.rateLimitRefusals)) };
  });
  const eventStore = once(async () => {
    const opened = await (await import('@eventide/stores/personal-data/open.ts')).openEventStore(config, upcasters ? { upcasters } : {});
    return { ...opened, store: tracedEventStore(meteredEventStore(opened.store, metrics.appendSeconds)) };
  });
  const readModels = once(async () => (await import('@eventide/stores/read-models/open.ts')).openReadModels(config));
  const eventBus = once(async () => (await import('@eventide/stores/event-bus/open.ts')).openEventBus(config, log));
  const parked = once(async () => (await import('@eventide/stores/parked/open.ts')).openParkedEvents(config));
  const deadlines = once(async () => (await import('@eventide/stores/deadlines/open.ts')).openDeadlineSchedule(config));
  const webhooks = once(async () => (await import('@eventide/stores/webhooks/open.ts')).openWebhookStore(config));
  const images = once(async () => (await import('@eventide/stores/image-store/open.ts')).openImageStore(config));
  const clock = openClock(config, log);
  const platform: Platform = {
    config,
    log,
    auth: auth.get,
    eventStore: eventStore.get,
    readModels: readModels.get,
    eventBus: eventBus.get,
    parked: parked.get,
    deadlines: deadlines.get,
    webhooks: webhooks.get,
    images: images.get,
    clock,
    projected: projected ?? progressSignal(),
    personalData: personalDataSections(),
    metrics,
  };
  return {
    platform,
    /** A probe of each adapter a service asked for (readiness.ts). */
    probes: async () =>
      adapterProbes(
        { events: await eventStore.opened(), read: await readModels.opened(), bus: await eventBus.opened(), sessions: await auth.opened() },
        config.READY_MAX_LAG_EVENTS,
      ),
    openedAuth: () => auth.opened(),
    /** Closes what was opened, followers' stores after their services stopped. */
    async close() {
      clock.close();
      await Promise.all([
        eventBus.opened()?.then((opened) => opened.store.close()),
        parked.opened()?.then((opened) => opened.store.close()),
        deadlines.opened()?.then((opened) => opened.store.close()),
        webhooks.opened()?.then((opened) => opened.store.close()),
        images.opened()?.then((opened) => opened.store.close()),
        readModels.opened()?.then((opened) => opened.store.close()),
        eventStore.opened()?.then((opened) => opened.store.close()),
        auth.opened()?.then((opened) => opened.close()),
      ]);
    },
  };
}

/**
 * On PostgreSQL, the shared secrets the environment does not give are kept in the database
 * (stores/postgres/secrets.ts), so processes on several hosts need no file in common; elsewhere
 * each is a file under DATA_DIR, made by the first process that needs it (kernel/secret.ts).
 */
async function withSharedSecrets(config: Config): Promise<Config> {
  if (!config.DATABASE_URL || (config.SESSION_SECRET && config.CURSOR_SECRET)) return config;
  const { sharedSecrets } = await import('@eventide/stores/postgres/secrets.ts');
  const kept = await sharedSecrets(config.DATABASE_URL, ['session', 'cursor']);
  return { ...config, SESSION_SECRET: config.SESSION_SECRET ?? kept.session, CURSOR_SECRET: config.CURSOR_SECRET ?? kept.cursor };
}

/** Starts the services in order on one platform; a failure closes what had started. */
export async function compose<Factories extends Record<string, ServiceFactory>>(
  options: PlatformOptions,
  factories: Factories,
): Promise<Composition<{ [K in keyof Factories]: Awaited<ReturnType<Factories[K]>> }>> {
  const opened = openPlatform({ ...options, config: await withSharedSecrets(options.config) });
  const started: Service[] = [];
  const services: Record<string, Service> = {};
  const closeAll = async () => {
    // Last started, first stopped: nothing is left writing to a store that closes.
    for (const service of [...started].reverse()) await service.close();
    await opened.close();
  };
  try {
    for (const [name, factory] of Object.entries(factories)) {
      const service = await factory(opened.platform);
      started.push(service);
      services[name] = service;
    }
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
  return {
    platform: opened.platform,
    services: services as { [K in keyof Factories]: Awaited<ReturnType<Factories[K]>> },
    apis: started.flatMap((s) => (s.api ? [s.api] : [])),
    health: () => Object.assign({}, ...started.map((s) => s.health())),
    ready: sharedFor(READY_REUSE_MS, async () => readiness([...(await opened.probes()), ...started.flatMap((s) => s.probes?.() ?? [])])),
    auth: await opened.openedAuth(),
    attach(server) {
      for (const service of started) service.attach?.(server);
    },
    disconnect: async () => void (await Promise.all(started.map((s) => s.disconnect?.()))),
    close: closeAll,
  };
}
