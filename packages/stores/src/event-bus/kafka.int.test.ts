// The Kafka bus on librdkafka's mock cluster (Debian's kcat): the contract, and what is Kafka's
// own: a group that joins later reads what the topics hold from the beginning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import { kcatAvailable, startMockKafka, type MockKafka } from '@eventide/testing/mock-kafka.ts';
import { until } from '@eventide/testing/wait.ts';
import { envelopeOf, eventBusContract } from './contract.ts';
import { kafkaBus } from './kafka.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

if (!kcatAvailable()) {
  console.warn('SKIPPED: the Kafka event bus contract: kcat is not installed (apt-get install -y kcat gives the mock cluster)');
  describe('EventBus contract: Kafka', () => it.skip('skipped: kcat is not installed', () => {}));
} else {
  let cluster: MockKafka;
  let buses = 0;
  beforeAll(async () => {
    cluster = await startMockKafka();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** A bus on topics of its own, with the short session the SDK tests use. */
  const openBus = () =>
    kafkaBus(
      {
        brokers: cluster.brokers,
        clientId: 'contract',
        topicPrefix: `bus${++buses}-${Date.now()}.`,
        sessionTimeout: 6000,
        heartbeatInterval: 300,
        maxWaitTimeInMs: 100,
      },
      log,
    );

  eventBusContract('Kafka (librdkafka mock cluster)', async () => {
    const bus = openBus();
    return { bus, dispose: () => bus.close() };
  });

  describe('the Kafka bus', { timeout: 120_000 }, () => {
    it('gives a group that joins later what the topics hold, from the beginning', async () => {
      const bus = openBus();
      try {
        const earlier = envelopeOf('user:created', 'early');
        await bus.publish([earlier]);
        const got: string[] = [];
        const late = await bus.subscribe({
          group: `late-${Date.now()}`,
          names: ['user:created'],
          deliver: async ({ raw }) => void got.push(JSON.parse(raw).id),
        });
        await until(() => got.includes(earlier.id), 'the earlier event');
        expect(got).toEqual([earlier.id]);
        await late.stop();
      } finally {
        await bus.close();
      }
    });
  });
}
