// The publisher against a real Kafka wire-protocol peer, read back by kcat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { toEnvelope, entityIdOf } from '@eventide/kernel/events/envelope.ts';
import { kafkaBus } from '@eventide/stores/event-bus/kafka.ts';
import { topicOf } from '@eventide/kernel/events/on-the-wire.ts';
import { asyncApiChecker } from '@eventide/testing/asyncapi-messages.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { startPublisher } from '@eventide/projector/src/publisher.ts';
import { memoryCheckpoints } from './memory-checkpoints.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFullApp, type FullApp } from './full-app.ts';
import { startService } from './process.ts';
import { kcatAvailable, kcatRead, startMockKafka, type KcatMessage, type MockKafka } from '@eventide/testing/mock-kafka.ts';
import { openPayload } from '@eventide/sdk/personal.ts';
import { isSealed } from '@eventide/kernel/events/personal-fields.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';

const log = createLogger({ level: 'silent' });

async function publicEvents(app: FullApp): Promise<RecordedEvent[]> {
  return (await app.eventStore.readAll({ after: 0, limit: 10_000 })).filter((e) => toEnvelope(e) !== undefined);
}

async function allMessages(brokers: string[], prefix: string): Promise<KcatMessage[]> {
  const topics = ['user', 'product', 'order'].map((m) => topicOf(prefix, m));
  return (await Promise.all(topics.map((t) => kcatRead(brokers, t)))).flat();
}

/**
 * Reads the topics until what kcat sees satisfies `enough`: one read may end before a busy
 * broker has served every partition, so a single read is not the condition.
 */
async function messagesOnceSeen(brokers: string[], prefix: string, what: string, enough: (messages: KcatMessage[]) => boolean) {
  let messages: KcatMessage[] = [];
  let lastError: unknown;
  try {
    await until(
      async () => {
        try {
          messages = await allMessages(brokers, prefix);
        } catch (error) {
          lastError = error; // kcat gives up on a broker that is slow to answer: read again
          return false;
        }
        return enough(messages);
      },
      what,
      60_000,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; kcat last saw ${messages.length} messages${lastError ? `, last error: ${String(lastError)}` : ''}`,
    );
  }
  return messages;
}

const carriesEvery = (events: RecordedEvent[]) => (messages: KcatMessage[]) => {
  const ids = new Set(messages.map((m) => m.headers['event-id']));
  return events.every((e) => ids.has(e.id));
};

async function writeSomething(app: FullApp, tag: string) {
  const user = await app.write('POST', '/users', { name: 'Kafka', email: `kafka-${tag}-${Date.now()}@example.com` });
  const product = await app.write('POST', '/products', { name: `Kettle ${tag}`, price: { amount: 1000, currency: 'EUR' } });
  const order = await app.write('POST', '/orders', {
    userId: user.body.userId,
    lines: [{ productId: product.body.productId, quantity: 1 }],
  });
  await app.write('PATCH', `/orders/${order.body.orderId}`, { status: 'placed' });
  await app.write('PATCH', `/users/${user.body.userId}`, { name: 'Kafka 2' });
  await app.write('PATCH', `/products/${product.body.productId}`, { taxRate: 20 });
  await app.write('DELETE', `/products/${product.body.productId}`);
  // The rest of the nine: a user and an order that go.
  const leaving = await app.write('POST', '/users', { name: 'Leaving', email: `leaving-${tag}-${Date.now()}@example.com` });
  const dropped = await app.write('POST', '/orders', { userId: user.body.userId, lines: [] });
  await app.write('DELETE', `/orders/${dropped.body.orderId}`);
  await app.write('DELETE', `/users/${leaving.body.userId}`);
}

if (!kcatAvailable()) {
  console.warn('SKIPPED: Kafka publisher tests: kcat is not installed (apt-get install -y kcat gives the mock cluster)');
  describe('Kafka publisher', () => it.skip('skipped: kcat is not installed', () => {}));
} else {
  describe('Kafka publisher', { timeout: 120_000 }, () => {
    let kafka: MockKafka;
    let app: FullApp;
    let bus: EventBus;
    beforeAll(async () => {
      kafka = await startMockKafka();
      app = await startFullApp();
    });
    afterAll(async () => {
      await bus?.close();
      await app?.close();
      await kafka?.stop();
    });

    it('publishes every public event, keyed by entity, as kcat reads it, and nothing private', async () => {
      const prefix = `t1-${Date.now()}.`;
      bus = kafkaBus({ brokers: kafka.brokers, clientId: 'test', topicPrefix: prefix }, log);
      await writeSomething(app, 'a');
      const publisher = startPublisher({
        eventStore: app.eventStore,
        checkpoints: app.readStore,
        parked: openSqliteParkedEvents(':memory:'),
        bus,
        log,
      });
      const head = await app.eventStore.head();
      await until(() => publisher.position() >= head, 'the publisher to reach the head');
      await publisher.stop();

      const expected = await publicEvents(app);
      const described = asyncApiChecker(prefix);
      const messages = await messagesOnceSeen(kafka.brokers, prefix, 'kcat to read every public event', carriesEvery(expected));
      expect(messages).toHaveLength(expected.length);
      for (const event of expected) {
        const envelope = toEnvelope(event)!;
        const message = messages.find((m) => m.headers['event-id'] === event.id);
        expect(message, event.type).toBeDefined();
        // What is personal travels sealed, and opens with the key store to what the event says.
        const travelled = JSON.parse(message!.payload);
        const opened = await openPayload(event.type, travelled.data, app.keys);
        // (The person who left reads as forgotten, as the SDK marks it: their key is gone.)
        expect({ ...travelled, data: opened.data, ...(opened.forgotten ? { forgotten: true } : {}) }).toEqual(envelope);
        expect(message!.key).toBe(entityIdOf(envelope));
        expect(message!.headers['event-type']).toBe(event.type);
        expect(message!.headers['correlation-id']).toBe(event.metadata.correlationId);
        // The payload's schema version, which the envelope carries too: what a consumer without the SDK routes by.
        expect(message!.headers['schema-version']).toBe(String(envelope.schemaVersion));
        expect(message!.topic).toBe(topicOf(prefix, event.type.split(':')[0]!));
        // As /asyncapi.json describes it: topic, headers and value.
        expect(described.problemsOf({ topic: message!.topic, headers: message!.headers, payload: travelled }), event.type).toEqual([]);
      }
      // Each of the nine was read off the topics and held to the document.
      expect(new Set(messages.map((m) => m.headers['event-type'])).size).toBe(9);
      expect(messages.some((m) => m.payload.includes('email:claimed'))).toBe(false);
      const users = messages.filter((m) => m.headers['event-type'] === 'user:created');
      expect(users.length).toBeGreaterThan(0);
      for (const m of users) {
        const { data } = JSON.parse(m.payload);
        expect(isSealed(data.name) && isSealed(data.email), m.payload).toBe(true);
      }
      for (const personal of ['Kafka 2', '@example.com']) expect(messages.filter((m) => m.payload.includes(personal))).toEqual([]);
      expect(await app.readStore.loadCheckpoint('event-bus-publisher')).toBe(head);
    });

    it("publishes from npm start's process when KAFKA_BROKERS is set", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'eventide-kafka-svc-'));
      const service = await startService({ DATA_DIR: dataDir, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: 'svc.' });
      try {
        const reply = await fetch(`${service.url}/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'From the service', email: 'svc@example.com' }),
        });
        const user = (await reply.json()) as { userId: string };
        await until(async () => (await kcatRead(kafka.brokers, 'svc.user')).some((m) => m.key === user.userId), 'the event on svc.user');
      } finally {
        await service.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it("republishes, never loses, when killed between the brokers' ack and its checkpoint", async () => {
      const prefix = `t2-${Date.now()}.`;
      await bus.close();
      bus = kafkaBus({ brokers: kafka.brokers, clientId: 'test', topicPrefix: prefix }, log);
      await writeSomething(app, 'b');
      // Fresh checkpoints whose first save fails after the ack.
      const checkpoints = memoryCheckpoints(1);
      const publisher = startPublisher({ eventStore: app.eventStore, checkpoints, parked: openSqliteParkedEvents(':memory:'), bus, log });
      const head = await app.eventStore.head();
      await until(() => publisher.position() >= head, 'the publisher to reach the head');
      await publisher.stop();

      const expected = await publicEvents(app);
      const republished = (messages: KcatMessage[]) => messages.length > new Set(messages.map((m) => m.headers['event-id'])).size;
      const messages = await messagesOnceSeen(
        kafka.brokers,
        prefix,
        'kcat to read every public event, some twice',
        (seen) => carriesEvery(expected)(seen) && republished(seen),
      );
      const ids = messages.map((m) => m.headers['event-id']);
      for (const event of expected) expect(ids).toContain(event.id);
      expect(ids.length).toBeGreaterThan(new Set(ids).size); // the batch was published twice
    });
  });
}
