// GET /health/ready on real adapters: the embedded stores, Kafka (librdkafka's mock cluster
// through kcat) and a Kafka address where nothing listens.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { kcatAvailable, startMockKafka } from '@eventide/testing/mock-kafka.ts';
import { compose, type Service, type ServiceFactory } from './compose.ts';
import { readiness } from './readiness.ts';

const log = createLogger({ level: 'silent' });
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A service that only opens the adapters it names, as the real ones do. */
function opening(...adapters: Array<'eventStore' | 'readModels' | 'eventBus' | 'auth'>): ServiceFactory {
  return async (platform) => {
    for (const adapter of adapters) await platform[adapter]();
    return { health: () => ({}), close: async () => undefined } satisfies Service;
  };
}

async function composed(env: Record<string, string>, factory: ServiceFactory) {
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-ready-'));
  const composition = await compose({ config: loadConfig({ DATA_DIR: dataDir, ...env }), log }, { probe: factory });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => composition.close());
  return composition;
}

const statuses = (checks: Record<string, { status: string }>) => Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v.status]));

describe('readiness', () => {
  it('asks every adapter the process opened, and fails while the read models are further behind than allowed', async () => {
    const composition = await composed({ READY_MAX_LAG_EVENTS: '1' }, opening('eventStore', 'readModels', 'auth'));
    const first = await composition.ready();
    expect(first.status).toBe('pass');
    expect(statuses(first.checks)).toEqual({
      eventStore: 'pass',
      keyStore: 'pass',
      readStore: 'pass',
      projectionLag: 'pass',
      sessionStore: 'pass',
    });

    // Nothing projects in this process: two appends leave the read models two events behind.
    const events = await composition.platform.eventStore();
    for (const n of [1, 2]) {
      await events.store.append(
        `test-${n}`,
        [
          {
            id: randomUUID(),
            type: 'test:happened',
            data: { n },
            metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'system', name: 'test' } },
          },
        ],
        { expectedRevision: 'any' },
      );
    }
    await expect
      .poll(async () => (await composition.ready()).checks.projectionLag)
      .toEqual({
        status: 'fail',
        observedValue: 2,
        observedUnit: 'events',
        output: 'the read models are 2 events behind the event store, more than READY_MAX_LAG_EVENTS (1)',
      });
    expect((await composition.ready()).status).toBe('fail');
  });

  it('fails the event bus when nothing answers at the Kafka address, within the probe timeout', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const composition = await composed({ KAFKA_BROKERS: `127.0.0.1:${port}` }, opening('eventBus'));
    const answer = await composition.ready();
    expect(answer.status).toBe('fail');
    expect(answer.checks.eventBus).toMatchObject({ status: 'fail', output: expect.any(String) });
  });

  it.runIf(kcatAvailable())('passes the event bus when Kafka answers, with how many brokers it sees', async () => {
    const kafka = await startMockKafka();
    cleanups.push(() => kafka.stop());
    const composition = await composed({ KAFKA_BROKERS: kafka.brokers.join(',') }, opening('eventBus'));
    await expect
      .poll(async () => (await composition.ready()).checks.eventBus)
      .toEqual({
        status: 'pass',
        observedValue: 3,
        observedUnit: 'brokers',
      });
  });
  if (!kcatAvailable()) console.warn('SKIPPED: readiness against Kafka: kcat is not installed (apt-get install -y kcat)');

  it('counts a probe that does not answer in time as failed, and answers anyway', async () => {
    const answer = await readiness(
      [
        { name: 'hung', check: () => new Promise(() => undefined) },
        { name: 'fine', check: async () => ({ observedValue: 1 }) },
      ],
      50,
    );
    expect(answer).toEqual({
      status: 'fail',
      checks: { hung: { status: 'fail', output: 'no answer within 50 ms' }, fine: { status: 'pass', observedValue: 1 } },
    });
  });
});
