// Kafka delivery for the subscriber SDK (kafkajs): a consumer group over the topics of the
// registered event names; each message's offset is committed after its dispatch finished
// (handled, a dropped duplicate, or dead-lettered), so a crash redelivers, never skips.
// Partitions are consumed one message at a time, so one entity's events arrive in order.
import { backoffDelay } from '../backoff.ts';
import { Kafka, Partitioners, type Consumer, type Producer } from 'kafkajs';
import type { EventName, Model } from '../events/catalogue.ts';
import { topicOf } from '../event-bus/kafka-producer.ts';
import { kafkaLogCreator } from '../event-bus/kafka-log.ts';
import type { Logger } from '../log.ts';
import type { DeadLetter, Dispatcher } from './dispatch.ts';

export interface KafkaTransportOptions {
  brokers: string[];
  groupId: string;
  clientId?: string;
  /** As the publisher's KAFKA_TOPIC_PREFIX; default "eventide.". */
  topicPrefix?: string;
  /** Where dead letters go; default `<topic>.dead-letter`. */
  deadLetterTopic?: (topic: string) => string;
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** How long a fetch waits for data on an idle partition (kafkajs default: 5000 ms). */
  maxWaitTimeInMs?: number;
}

export interface Transport {
  start(dispatcher: Dispatcher): Promise<void>;
  stop(): Promise<void>;
  deadLetter(letter: DeadLetter): Promise<void>;
}

export function kafkaTransport(options: KafkaTransportOptions, log: Logger): Transport {
  const prefix = options.topicPrefix ?? 'eventide.';
  const deadLetterTopic = options.deadLetterTopic ?? ((topic: string) => `${topic}.dead-letter`);
  const kafka = new Kafka({ clientId: options.clientId ?? options.groupId, brokers: options.brokers, logCreator: kafkaLogCreator(log) });
  let consumer: Consumer | undefined;
  let producer: Producer | undefined;

  let stopping = false;
  let restarts = 0;
  /** Called when a member joins the group: the first member, or the one started after it crashed. */
  let onJoin = () => {};

  /** A fresh consumer in the group, running; its joining the group calls onJoin. */
  async function startConsumer(dispatcher: Dispatcher, topics: string[]): Promise<void> {
    const member = kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: true,
      ...(options.sessionTimeout ? { sessionTimeout: options.sessionTimeout } : {}),
      ...(options.heartbeatInterval ? { heartbeatInterval: options.heartbeatInterval } : {}),
      ...(options.maxWaitTimeInMs ? { maxWaitTimeInMs: options.maxWaitTimeInMs } : {}),
    });
    consumer = member;
    // kafkajs gives up on errors it deems non-retriable (a SyncGroup refused in the middle of a
    // rebalance, say); a subscriber must outlive them, so it starts a fresh consumer, which
    // resumes from the committed offsets.
    member.on(member.events.CRASH, ({ payload }) => {
      if (payload.restart || stopping) return;
      const delay = backoffDelay(++restarts);
      log.error({ err: payload.error, retryInMs: Math.round(delay) }, 'subscriber: consumer stopped after an error; starting a new one');
      setTimeout(() => {
        if (!stopping) startConsumer(dispatcher, topics).catch((err: unknown) => log.error({ err }, 'subscriber: restart failed'));
      }, delay);
    });
    member.on(member.events.GROUP_JOIN, () => {
      restarts = 0;
      onJoin();
    });
    await member.connect();
    await member.subscribe({ topics, fromBeginning: true });
    // kafkajs resolves a message's offset only when eachMessage returns, and commits resolved
    // offsets after every message (threshold 1): commit after the handler, never before.
    await member.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      eachMessage: async ({ topic, partition, message }) => {
        const origin = { topic, partition: String(partition), offset: message.offset };
        await dispatcher.dispatch(message.value?.toString() ?? '', origin);
      },
    });
  }

  return {
    async start(dispatcher) {
      const topics = [...new Set(dispatcher.names().map((name: EventName) => topicOf(prefix, name.split(':')[0] as Model)))];
      if (topics.length === 0) throw new Error('register a handler with on() before start()');
      producer = kafka.producer({ allowAutoTopicCreation: true, idempotent: false, createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      // start() resolves once a member has joined the group and holds its partitions. That may be
      // the member started after the first one crashed before joining (a SyncGroup refused in a
      // rebalance): waiting for the first one's join alone would never end.
      const joined = new Promise<void>((resolve) => (onJoin = resolve));
      await startConsumer(dispatcher, topics);
      await joined;
    },

    async stop() {
      stopping = true;
      await consumer?.disconnect();
      await producer?.disconnect();
    },

    async deadLetter(letter) {
      const topic = letter.origin.topic ?? `${prefix}unknown`;
      await producer!.send({
        topic: deadLetterTopic(topic),
        acks: -1,
        messages: [
          {
            key: letter.eventId ?? null,
            value: letter.raw,
            headers: {
              'dead-letter-reason': letter.reason.slice(0, 2000),
              'dead-letter-attempts': String(letter.attempts),
              ...(letter.eventId ? { 'event-id': letter.eventId } : {}),
              ...(letter.eventType ? { 'event-type': letter.eventType } : {}),
              'original-topic': topic,
              'original-partition': letter.origin.partition ?? '',
              'original-offset': letter.origin.offset ?? '',
            },
          },
        ],
      });
      log.warn({ eventId: letter.eventId, eventType: letter.eventType, attempts: letter.attempts }, 'event sent to the dead-letter topic');
    },
  };
}
