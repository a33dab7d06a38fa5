// Collaborative editing as a part of a process that is started again when it dies, while the rest
// of the process goes on serving. It dies when its store stops answering (a connection closed
// under it, a disk gone read-only: `RESTART_AFTER` failed checks in a row) or is killed; it is then
// closed, its editors told to reconnect (1012), and opened afresh with bounded, jittered backoff
// until it opens. Meanwhile its routes and the /collab upgrade answer 503 with Retry-After, and
// readiness says it is down. Every acknowledged op is in the store already: nothing is lost.
//
// The routes, the export's section and the metrics are registered once, delegating to whichever
// instance runs now, since the HTTP app and the registries outlive it.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { endWithProblem } from '@eventide/platform/http/client-errors.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import { AppError, problemOf } from '@eventide/contract/problems.ts';
import { Refusal } from '@eventide/kernel/models/refusal.ts';
import type { Metrics } from '@eventide/platform/metrics/metrics.ts';
import type { PersonalDataSections } from '@eventide/runtime/export-sections.ts';
import type { Collab, CollabWiring } from './wire.ts';

/** Failed store checks in a row that count as the part having died. */
const RESTART_AFTER = 3;
const CHECK_EVERY_MS = 1_000;

export interface SupervisedCollab extends Omit<Collab, 'collab' | 'kill'> {
  /** The instance running now (undefined while it restarts). */
  current(): Collab | undefined;
  /** Why it is down, while it is. */
  down(): string | undefined;
  readonly restarts: number;
}

/** A refusal while the part restarts: its clients come back in a moment. */
const restarting = (why: string) =>
  problemOf('unavailable', `collaborative editing is restarting (${why}); try again shortly`, { headers: { 'Retry-After': '2' } });

type Handle = (input: unknown) => unknown;
/** An `owner` route's registration (http/mount.ts owned()). */
type Owned = { owner: { load(params: unknown): unknown; check(...args: unknown[]): void }; handle: Handle };

/**
 * Handlers that call the running instance's, or refuse with 503 while there is none. A failure
 * while its store does not answer a check either is the store's, not the request's: 503 too.
 */
function delegatingHandlers(first: Collab['handlers'], running: () => Collab, log: Logger): Collab['handlers'] {
  const of = (name: string) => (running().handlers as unknown as Record<string, Handle | Owned>)[name]!;
  const owned = (name: string) => of(name) as Owned;
  const guarded = async (call: () => unknown) => {
    const instance = running();
    try {
      return await call();
    } catch (error) {
      // A refusal is the request's; only a failure may be the store's.
      if (error instanceof AppError || error instanceof Refusal) throw error;
      const storeDown = await instance.probe().then(
        () => false,
        () => true,
      );
      if (!storeDown) throw error;
      log.error({ err: error }, 'collab: a request failed while its store does not answer');
      throw restarting('its store does not answer');
    }
  };
  const delegates = Object.entries(first as unknown as Record<string, Handle | Owned>).map(([name, registration]) => {
    if (typeof registration === 'function') return [name, (input: unknown) => guarded(() => (of(name) as Handle)(input))];
    return [
      name,
      {
        owner: {
          load: (params: unknown) => guarded(() => owned(name).owner.load(params)),
          check: (...args: unknown[]) => owned(name).owner.check(...args),
        },
        handle: (input: unknown) => guarded(() => owned(name).handle(input)),
      },
    ];
  });
  return Object.fromEntries(delegates) as unknown as Collab['handlers'];
}

/**
 * `open` opens one instance with what it is given of `wiring`: sections and metrics registered
 * once, here, for all of them.
 */
export async function superviseCollab(
  open: (wiring: Pick<CollabWiring, 'personalData' | 'metrics'>) => Promise<Collab>,
  {
    log,
    personalData,
    metrics,
    checkEveryMs = CHECK_EVERY_MS,
  }: { log: Logger; personalData?: PersonalDataSections; metrics?: Metrics; checkEveryMs?: number },
): Promise<SupervisedCollab> {
  // Each instance adds its sections and gauges; the first one's are registered, delegating to the one running.
  const readers = new Map<string, (userId: string) => unknown>();
  const sections: PersonalDataSections | undefined = personalData && {
    ...personalData,
    add(section, read) {
      if (!readers.has(section)) personalData.add(section, ((userId: string) => readers.get(section)!(userId)) as never);
      readers.set(section, read as (userId: string) => unknown);
    },
  };
  const gauges = new Map<string, () => Promise<number> | number>();
  const metered: Metrics | undefined = metrics && {
    ...metrics,
    gaugeOnScrape(name, help, read) {
      if (!gauges.has(name)) metrics.gaugeOnScrape(name, help, () => gauges.get(name)!());
      gauges.set(name, read);
    },
  };
  const wiring = { ...(sections ? { personalData: sections } : {}), ...(metered ? { metrics: metered } : {}) };

  let current: Collab | undefined = await open(wiring);
  let down: string | undefined;
  let server: Server | undefined;
  let failures = 0;
  let restarts = 0;
  let attempts = 0;
  let closing = false;
  let restarting_: Promise<void> | undefined;

  const running = () => {
    if (!current) throw restarting(down ?? 'starting');
    return current;
  };

  async function restart(why: string): Promise<void> {
    if (restarting_ || closing) return restarting_;
    restarting_ = (async () => {
      const dead = current;
      current = undefined;
      down = why;
      log.error({ why }, 'collaborative editing died; starting it again');
      await dead
        ?.disconnect()
        .catch((error: unknown) => log.warn({ err: error }, 'collab: closing the connections of the dead part failed'));
      await dead?.close().catch((error: unknown) => log.warn({ err: error }, 'collab: closing the dead part failed'));
      while (!closing) {
        try {
          const opened = await open(wiring);
          if (closing) {
            await opened.close();
            break;
          }
          if (server) opened.attach(server);
          current = opened;
          down = undefined;
          attempts = 0;
          restarts++;
          log.warn({ restarts }, 'collaborative editing is running again');
          break;
        } catch (error) {
          const delay = backoffDelay(++attempts);
          down = `${why}; opening it again failed (${error instanceof Error ? error.message : String(error)}), next in ${(delay / 1000).toFixed(1)} s`;
          log.error({ err: error, retryInMs: Math.round(delay) }, 'collab: opening it again failed');
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
        }
      }
    })().finally(() => {
      restarting_ = undefined;
      failures = 0;
    });
    return restarting_;
  }

  const timer = setInterval(() => {
    const checked = current;
    if (!checked || restarting_) return;
    checked.probe().then(
      () => {
        failures = 0;
      },
      (error: unknown) => {
        if (checked !== current) return;
        failures++;
        log.warn({ err: error, failures }, 'collab: its store did not answer a check');
        if (failures >= RESTART_AFTER)
          void restart(`its store stopped answering: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }, checkEveryMs);
  timer.unref();

  return {
    handlers: delegatingHandlers(current.handlers, running, log),
    description: current.description,
    current: () => current,
    down: () => down,
    get restarts() {
      return restarts;
    },
    attach(given) {
      server = given;
      // While no instance runs, nothing else answers an upgrade: this one says when to come back.
      given.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
        if (current) return;
        const problem = restarting(down ?? 'starting');
        endWithProblem(
          socket,
          {
            type: `/problems/${problem.type}`,
            title: problem.title,
            status: problem.status,
            detail: problem.message,
            instance: request.url ?? '/',
          },
          problem.headers,
        );
      });
      return running().attach(given);
    },
    disconnect: async () => current?.disconnect(),
    probe: async () => running().probe(),
    ...(current.pubsubProbe ? { pubsubProbe: async () => running().pubsubProbe!() } : {}),
    async close() {
      closing = true;
      clearInterval(timer);
      await restarting_;
      await current?.close();
    },
  };
}
