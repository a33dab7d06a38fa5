// Event distribution over Kafka (librdkafka's mock cluster; needs kcat): write-to-handler
// latency (append committed → our publisher → broker → SDK handler) against a raw kafkajs
// produce-to-consume round on the same broker; relay throughput (publisher catching up a
// backlog) against a raw kafkajs batch produce of the same messages.
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { kafkaBus } from '@eventide/stores/event-bus/kafka.ts';
import { stopIdleRequestQueueLoop } from '@eventide/stores/event-bus/kafkajs-idle-loop.ts';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { createSubscriber } from '@eventide/sdk/subscriber.ts';
import { startPublisher } from '@eventide/projector/src/publisher.ts';
import { kcatAvailable, startMockKafka } from '@eventide/testing/mock-kafka.ts';
import { memoryCheckpoints } from '../test/memory-checkpoints.ts';
import { p } from './percentile.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';

const log = createLogger({ level: 'silent' });
const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };
/**
 * Both consumers fetch without waiting: an empty fetch returns at once and the next goes out.
 * The mock cluster does not end a waiting fetch when data arrives, so with any wait a message's
 * latency depended on when it landed in the wait (raw sent its next message from inside its
 * consumer callback, before the next fetch; ours, after an append, into a fresh wait: 24x at p50).
 * Without a wait neither is quantised by a timer, and the ratio measures the work on each path.
 */
const FETCH_WAIT_MS = 0;

function userCreated(): { streamId: string; event: NewEvent } {
  const userId = newId();
  return {
    streamId: `user-${userId}`,
    event: { id: newId(), type: 'user:created', data: { userId, name: 'Bench', email: `${userId}@example.com` }, metadata },
  };
}

export interface KafkaResults {
  ours: { p50: number; p99: number };
  /** Of ours, the append alone, until committed: the part of the path the raw round trip has no counterpart of. */
  append: { p50: number };
  /** Ours from the append's commit to the handler: the path the raw round trip compares with. */
  afterCommit: { p50: number; p99: number };
  raw: { p50: number; p99: number };
  relayPerSecond: number;
  rawProducePerSecond: number;
  events: number;
}

async function rawRoundTrips(brokers: string[], samples: number) {
  const kafka = new Kafka({ clientId: 'raw', brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({
    allowAutoTopicCreation: true,
    idempotent: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const consumer = kafka.consumer({ groupId: 'raw-bench', sessionTimeout: 6000, heartbeatInterval: 300, maxWaitTimeInMs: FETCH_WAIT_MS });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: ['raw.bench'], fromBeginning: true });
  let arrived: (() => void) | undefined;
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({ eachMessage: async () => arrived?.() });
  await joined;
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const started = performance.now();
    await producer.send({ topic: 'raw.bench', acks: -1, messages: [{ key: newId(), value: JSON.stringify(userCreated().event) }] });
    await got;
    latencies.push(performance.now() - started);
  }
  await consumer.disconnect();
  await producer.disconnect();
  return { p50: p(latencies, 0.5), p99: p(latencies, 0.99) };
}

async function rawProduceRate(brokers: string[], events: number) {
  const kafka = new Kafka({ clientId: 'raw-produce', brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({
    allowAutoTopicCreation: true,
    idempotent: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const messages = Array.from({ length: events }, () => {
    const { event } = userCreated();
    return { key: newId(), value: JSON.stringify(event), headers: { 'event-type': event.type, 'event-id': event.id } };
  });
  const started = performance.now();
  for (let i = 0; i < messages.length; i += 500) {
    await producer.sendBatch({ acks: -1, topicMessages: [{ topic: 'raw.produce', messages: messages.slice(i, i + 500) }] });
  }
  const rate = events / ((performance.now() - started) / 1000);
  await producer.disconnect();
  return rate;
}

export async function benchKafka(dir: string, scale: number): Promise<KafkaResults | undefined> {
  if (!kcatAvailable()) return undefined;
  // Ours runs kafkajs with its idle loop stopped (docs/events.md); so does the raw peer, from its first connection.
  stopIdleRequestQueueLoop();
  const cluster = await startMockKafka();
  const eventStore = openSqliteEventStore({ path: join(dir, 'kafka-events.db'), synchronous: 'NORMAL' });
  try {
    const samples = Math.max(50, Math.round(300 * scale));
    const raw = await rawRoundTrips(cluster.brokers, samples);

    // Ours, one write at a time: append → publisher → broker → SDK handler.
    const bus = kafkaBus({ brokers: cluster.brokers, clientId: 'bench', topicPrefix: 'lat.' }, log);
    const publisher = startPublisher({
      eventStore,
      checkpoints: memoryCheckpoints(),
      parked: openSqliteParkedEvents(':memory:'),
      bus,
      log,
    });
    let arrived: ((id: string) => void) | undefined;
    const subscriber = createSubscriber({
      kafka: {
        brokers: cluster.brokers,
        groupId: 'lat',
        topicPrefix: 'lat.',
        sessionTimeout: 6000,
        heartbeatInterval: 300,
        maxWaitTimeInMs: FETCH_WAIT_MS,
      },
      log,
    });
    subscriber.on('user:created', (event) => arrived?.(event.id));
    await subscriber.start();
    const latencies: number[] = [];
    const appends: number[] = [];
    const afterCommit: number[] = [];
    for (let i = 0; i < samples; i++) {
      const { streamId, event } = userCreated();
      const got = new Promise<void>((resolve) => (arrived = (id) => id === event.id && resolve()));
      const started = performance.now();
      await eventStore.append(streamId, [event], { expectedRevision: 'no_stream' });
      const committed = performance.now();
      await got;
      const handled = performance.now();
      latencies.push(handled - started);
      appends.push(committed - started);
      afterCommit.push(handled - committed);
    }
    await subscriber.stop();
    await publisher.stop();
    await bus.close();

    // Relay throughput: a backlog of events, published from scratch.
    const events = Math.max(2_000, Math.round(20_000 * scale));
    for (let i = 0; i < events; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, events - i) }, () => {
          const { streamId, event } = userCreated();
          return eventStore.append(streamId, [event], { expectedRevision: 'no_stream' });
        }),
      );
    }
    const head = await eventStore.head();
    const relayBus = kafkaBus({ brokers: cluster.brokers, clientId: 'relay', topicPrefix: 'relay.' }, log);
    const checkpoints = memoryCheckpoints();
    const started = performance.now();
    const relay = startPublisher({ eventStore, checkpoints, parked: openSqliteParkedEvents(':memory:'), bus: relayBus, log });
    while (relay.position() < head) await new Promise((resolve) => setTimeout(resolve, 5));
    const relayed = (await eventStore.readAll({ after: 0, limit: 1_000_000 })).length;
    const relayPerSecond = relayed / ((performance.now() - started) / 1000);
    await relay.stop();
    await relayBus.close();
    const rawProducePerSecond = await rawProduceRate(cluster.brokers, relayed);
    return {
      ours: { p50: p(latencies, 0.5), p99: p(latencies, 0.99) },
      append: { p50: p(appends, 0.5) },
      afterCommit: { p50: p(afterCommit, 0.5), p99: p(afterCommit, 0.99) },
      raw,
      relayPerSecond,
      rawProducePerSecond,
      events: relayed,
    };
  } finally {
    await eventStore.close();
    await cluster.stop();
  }
}
