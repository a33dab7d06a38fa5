// The event bus on Kafka (kafkajs). Publishing: a topic per model (`<prefix><model>`), the
// entity id as key, the event's type, id, schema version and correlation id in headers, the envelope as JSON; acks=all, and one
// request in flight so that a retried request cannot overtake a later one: one entity's events
// stay in order. Subscribing: a consumer group over the topics of the wanted names; a message's
// offset is committed after `deliver` resolved, so a crash delivers it again, never skips it.
// Partitions are consumed one message at a time, so one entity's events arrive in order.
// A group's dead letters go to `<topic>.dead-letter`, saying whose; its operator puts one back on
// its topic for that group alone (`retry-for-group`: the other groups' members pass it by), with
// the entity's key, so it is read with no topic more than before (kafka-dead-letters.ts).
import { Kafka, Partitioners, type Admin, type Consumer, type Producer } from 'kafkajs';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import type { EventName, Model } from '@eventide/kernel/events/catalogue.ts';
import { modelOf } from '@eventide/kernel/events/envelope.ts';
import { headersOf, keyOf, topicOf, type HeaderName } from '@eventide/kernel/events/on-the-wire.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { kafkaLogCreator } from './kafka-log.ts';
import { stopIdleRequestQueueLoop } from './kafkajs-idle-loop.ts';
import type { EventBus, SubscribeOptions, Subscription } from './port.ts';

// Topic, key and headers as the catalogue's wire format says (kernel/events/on-the-wire.ts).
const HEADER_EVENT_TYPE = 'event-type' satisfies HeaderName;
const HEADER_EVENT_ID = 'event-id' satisfies HeaderName;

/** Whose dead letter a message of a dead-letter topic is: the groups share those topics. */
export const HEADER_DEAD_LETTER_GROUP = 'dead-letter-group';
/** The dead-letter topic a message of `topic` goes to, unless the settings say otherwise. */
export const defaultDeadLetterTopic = (topic: string) => `${topic}.dead-letter`;
/**
 * On a dead letter its group's operator put back on its topic: that group's members handle it
 * again, the others pass it by. (A topic of the group's own cost each delivery 0.3 ms more at
 * p50: the consumer's fetches cover its partitions too.)
 */
export const HEADER_RETRY_FOR_GROUP = 'retry-for-group';

export interface KafkaBusSettings {
  brokers: string[];
  clientId: string;
  /** Topics are `<prefix><model>`: eventide.user, eventide.order, eventide.product by default. */
  topicPrefix: string;
  /** Where a group's dead letters go; default `<topic>.dead-letter`. */
  deadLetterTopic?: (topic: string) => string;
  /** Consumer settings (kafkajs defaults otherwise). */
  sessionTimeout?: number;
  heartbeatInterval?: number;
  /** How long a fetch waits for data on an idle partition (kafkajs default: 5000 ms). */
  maxWaitTimeInMs?: number;
}

export function kafkaBus(settings: KafkaBusSettings, log: Logger): EventBus {
  // Before any connection: kafkajs would otherwise keep each one busy once a millisecond.
  stopIdleRequestQueueLoop();
  const kafka = new Kafka({ clientId: settings.clientId, brokers: settings.brokers, logCreator: kafkaLogCreator(log) });
  const deadLetterTopic = settings.deadLetterTopic ?? defaultDeadLetterTopic;
  const subscriptions = new Set<Subscription>();
  let producer: Promise<Producer> | undefined;
  /** For readiness probes only, connected on the first (ping). */
  let admin: Promise<Admin> | undefined;

  /** One producer for the bus, connected on first use (a bus that only subscribes may never publish). */
  function connectedProducer(): Promise<Producer> {
    producer ??= (async () => {
      // Not idempotent: brokers without a controller (librdkafka's mock cluster) refuse it; order
      // is kept by one request in flight instead, and subscribers drop duplicates by event id.
      const created = kafka.producer({
        allowAutoTopicCreation: true,
        idempotent: false,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await created.connect();
      return created;
    })().catch((error: unknown) => {
      producer = undefined;
      throw error;
    });
    return producer;
  }

  async function subscribe(options: SubscribeOptions): Promise<Subscription> {
    const wanted = new Set<string>(options.names);
    const topics = [...new Set(options.names.map((name: EventName) => topicOf(settings.topicPrefix, name.split(':')[0] as Model)))];
    if (topics.length === 0) throw new Error('subscribe to at least one event name');
    let consumer: Consumer | undefined;
    let stopping = false;
    let restarts = 0;
    /** Called when a member joins the group: the first one, or the one started after it crashed. */
    let onJoin = () => {};

    /** A fresh consumer in the group, running; its joining the group calls onJoin. */
    async function startConsumer(): Promise<void> {
      const member = kafka.consumer({
        groupId: options.group,
        allowAutoTopicCreation: true,
        ...(settings.sessionTimeout ? { sessionTimeout: settings.sessionTimeout } : {}),
        ...(settings.heartbeatInterval ? { heartbeatInterval: settings.heartbeatInterval } : {}),
        ...(settings.maxWaitTimeInMs !== undefined ? { maxWaitTimeInMs: settings.maxWaitTimeInMs } : {}),
      });
      consumer = member;
      // kafkajs gives up on errors it deems non-retriable (a SyncGroup refused in the middle of a
      // rebalance, say); a subscriber must outlive them, so it starts a fresh consumer, which
      // resumes from the committed offsets.
      member.on(member.events.CRASH, ({ payload }) => {
        if (payload.restart || stopping) return;
        const delay = backoffDelay(++restarts);
        log.error({ err: payload.error, retryInMs: Math.round(delay) }, 'event bus: consumer stopped after an error; starting a new one');
        setTimeout(() => {
          if (!stopping) startConsumer().catch((err: unknown) => log.error({ err }, 'event bus: consumer restart failed'));
        }, delay);
      });
      member.on(member.events.GROUP_JOIN, () => {
        restarts = 0;
        onJoin();
      });
      await member.connect();
      await member.subscribe({ topics, fromBeginning: true });
      // kafkajs resolves a message's offset only when eachMessage returns, and commits resolved
      // offsets after every message (threshold 1): commit after delivery, never before.
      await member.run({
        autoCommit: true,
        autoCommitThreshold: 1,
        eachMessage: async ({ topic, partition, message }) => {
          // Other names of the same model share the topic. A message without the header (some
          // other producer's) is delivered, for the subscriber to judge.
          const type = message.headers?.[HEADER_EVENT_TYPE]?.toString();
          if (type !== undefined && !wanted.has(type)) return;
          const retryFor = message.headers?.[HEADER_RETRY_FOR_GROUP]?.toString();
          if (retryFor !== undefined && retryFor !== options.group) return;
          // One put back by the group's operator is handled again even if it was seen (dispatch.ts).
          const origin = {
            topic,
            partition: String(partition),
            offset: message.offset,
            ...(retryFor ? { retried: 'true' } : {}),
          };
          await options.deliver({ raw: message.value?.toString() ?? '', origin });
        },
      });
    }

    // Resolves once a member has joined the group and holds its partitions. That may be the
    // member started after the first one crashed before joining (a SyncGroup refused in a
    // rebalance): waiting for the first one's join alone would never end.
    const joined = new Promise<void>((resolve) => (onJoin = resolve));
    await startConsumer();
    await joined;

    const subscription: Subscription = {
      async deadLetter(letter) {
        const topic = letter.origin.topic ?? `${settings.topicPrefix}unknown`;
        await (await connectedProducer()).send({
          topic: deadLetterTopic(topic),
          acks: -1,
          messages: [
            {
              key: letter.eventId ?? null,
              value: letter.raw,
              headers: {
                [HEADER_DEAD_LETTER_GROUP]: options.group,
                'dead-letter-reason': letter.reason.slice(0, 2000),
                'dead-letter-attempts': String(letter.attempts),
                ...(letter.eventId ? { [HEADER_EVENT_ID]: letter.eventId } : {}),
                ...(letter.eventType ? { [HEADER_EVENT_TYPE]: letter.eventType } : {}),
                'original-topic': topic,
                'original-partition': letter.origin.partition ?? '',
                'original-offset': letter.origin.offset ?? '',
              },
            },
          ],
        });
        log.warn(
          { eventId: letter.eventId, eventType: letter.eventType, correlationId: letter.correlationId, attempts: letter.attempts },
          'event sent to the dead-letter topic',
        );
      },
      async stop() {
        stopping = true;
        subscriptions.delete(subscription);
        await consumer?.disconnect();
      },
    };
    subscriptions.add(subscription);
    return subscription;
  }

  return {
    kind: 'kafka',

    async publish(envelopes) {
      if (envelopes.length === 0) return;
      const byTopic = new Map<string, Array<{ key: string; value: string; headers: Record<string, string> }>>();
      for (const envelope of envelopes) {
        const topic = topicOf(settings.topicPrefix, modelOf(envelope));
        const messages = byTopic.get(topic) ?? [];
        messages.push({
          key: keyOf(envelope),
          value: JSON.stringify(envelope),
          headers: headersOf(envelope),
        });
        byTopic.set(topic, messages);
      }
      const connected = await connectedProducer();
      await connected.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    },

    subscribe,

    async ping() {
      admin ??= (async () => {
        // A client of its own without retries: a probe answers now, and the next one connects afresh.
        const prober = new Kafka({
          clientId: `${settings.clientId}-probe`,
          brokers: settings.brokers,
          retry: { retries: 0 },
          connectionTimeout: 1_000,
          logCreator: kafkaLogCreator(log),
        });
        const created = prober.admin();
        await created.connect();
        return created;
      })();
      try {
        return (await (await admin).describeCluster()).brokers.length;
      } catch (error) {
        // Connect afresh on the next probe: a broker that was down may be back.
        const failed = admin;
        admin = undefined;
        await (await failed.catch(() => undefined))?.disconnect().catch(() => undefined);
        throw error;
      }
    },

    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
      const opened = producer;
      producer = undefined;
      const probing = admin;
      admin = undefined;
      await Promise.all([(await opened?.catch(() => undefined))?.disconnect(), (await probing?.catch(() => undefined))?.disconnect()]);
    },
  };
}
