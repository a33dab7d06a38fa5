// GET /health/ready: whether this process can do its work now. Each probe asks one store (or
// Kafka) something real and cheap, bounded in time, so that a store that hangs makes the answer
// "fail" rather than a probe that hangs too. The body follows the health check response format
// of draft-inadarei-api-health-check (application/health+json): `status` pass or fail, and each
// check with what it observed or, when it failed, why.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import type { OpenedEventStore } from '@eventide/stores/personal-data/open.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import type { CheckResult, Observation, Readiness } from '@eventide/contract/resources/site/health.ts';

/** One thing readiness depends on; `check` rejects when it is not there. */
export interface Probe {
  name: string;
  check(): Promise<Observation>;
}

/** How long a probe may take before it counts as failed. */
export const PROBE_TIMEOUT_MS = 2_000;

async function run(probe: Probe, timeoutMs: number): Promise<CheckResult> {
  const timer = new AbortController();
  try {
    const observed = await Promise.race([
      probe.check(),
      sleep(timeoutMs, undefined, { signal: timer.signal, ref: false }).then(() => {
        throw new Error(`no answer within ${timeoutMs} ms`);
      }),
    ]);
    const { fail, ...observation } = observed;
    return fail === undefined ? { status: 'pass', ...observation } : { status: 'fail', ...observation, output: fail };
  } catch (error) {
    return { status: 'fail', output: error instanceof Error ? error.message : String(error) };
  } finally {
    timer.abort();
  }
}

export async function readiness(probes: readonly Probe[], timeoutMs = PROBE_TIMEOUT_MS): Promise<Readiness> {
  const results = await Promise.all(probes.map(async (probe) => [probe.name, await run(probe, timeoutMs)] as const));
  const checks = Object.fromEntries(results);
  return { status: results.every(([, r]) => r.status === 'pass') ? 'pass' : 'fail', checks };
}

/** A probe that passes when `ask` resolves, whatever it answers. */
export function answering(name: string, ask: () => Promise<unknown>): Probe {
  return {
    name,
    async check() {
      await ask();
      return {};
    },
  };
}

/** The adapters a process opened (undefined: no service of it asked for that one). */
export interface OpenedAdapters {
  events: OpenedEventStore | undefined;
  read: { store: ReadStore } | undefined;
  bus: { store: EventBus } | undefined;
  sessions: OpenedAuth | undefined;
}

/** One real, cheap request to each adapter a process opened, and the read models' lag where both stores are here. */
export function adapterProbes({ events, read, bus, sessions }: OpenedAdapters, maxLagEvents: number): Probe[] {
  const found: Probe[] = [];
  if (events) {
    found.push(
      { name: 'eventStore', check: async () => ({ observedValue: await events.store.head(), observedUnit: 'position' }) },
      answering('keyStore', () => events.keys.lookup(['readiness-probe'])),
    );
  }
  if (read) {
    found.push({
      name: 'readStore',
      check: async () => ({ observedValue: await read.store.servedCheckpoint(READ_MODELS_CHECKPOINT), observedUnit: 'position' }),
    });
  }
  if (events && read) {
    found.push({
      name: 'projectionLag',
      async check() {
        const [head, projected] = await Promise.all([events.store.head(), read.store.servedCheckpoint(READ_MODELS_CHECKPOINT)]);
        const lag = Math.max(0, head - projected);
        const behind = `the read models are ${lag} events behind the event store, more than READY_MAX_LAG_EVENTS (${maxLagEvents})`;
        return { observedValue: lag, observedUnit: 'events', ...(lag > maxLagEvents ? { fail: behind } : {}) };
      },
    });
  }
  const ping = bus?.store.ping?.bind(bus.store);
  if (ping) found.push({ name: 'eventBus', check: async () => ({ observedValue: await ping(), observedUnit: 'brokers' }) });
  if (sessions) found.push(answering('sessionStore', () => sessions.probe()));
  const limits = sessions?.limitsProbe?.bind(sessions);
  if (limits) found.push(answering('rateLimitStore', limits));
  return found;
}
