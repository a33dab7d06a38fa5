// A Kafka consumer group's dead letters, for its operator (the SDK's `eventide-dead-letters`
// command): list them with why, retry them once the cause is fixed, or skip them saying why.
// A dead letter stays where the subscriber put it (`<topic>.dead-letter`, kafka.ts); what was done
// about it is a message of its own on `<prefix>dead-letters.resolved`, keyed by group and letter,
// so that nothing is ever deleted and the record says who did what when. A retry puts the letter
// back on its topic with the entity's key, marked for that group alone (kafka.ts); its members
// handle it again even if they had seen it (dispatch.ts), after whatever came since: handlers must
// not assume order there.
import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, type KafkaMessage } from 'kafkajs';
import { MODELS } from '@eventide/kernel/events/catalogue.ts';
import { topicOf } from '@eventide/kernel/events/on-the-wire.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { defaultDeadLetterTopic, HEADER_DEAD_LETTER_GROUP, HEADER_RETRY_FOR_GROUP } from './kafka.ts';
import { kafkaLogCreator } from './kafka-log.ts';
import { stopIdleRequestQueueLoop } from './kafkajs-idle-loop.ts';

export interface DeadLetterResolution {
  action: 'retried' | 'skipped';
  /** Why it was skipped. */
  reason?: string;
  by: string;
  at: string;
}

export interface DeadLetterRecord {
  /** `<dead-letter topic>:<partition>:<offset>`: how the command names it. */
  id: string;
  group: string;
  eventId: string | undefined;
  eventType: string | undefined;
  /** Why the subscriber gave up on it: the handler's error. */
  reason: string;
  attempts: number;
  /** Where it had come from. */
  originalTopic: string;
  /** When it was dead-lettered. */
  time: string;
  /** The message as it had arrived. */
  raw: string;
  resolution?: DeadLetterResolution;
}

export interface KafkaDeadLettersSettings {
  brokers: string[];
  /** The consumer group whose dead letters these are. */
  group: string;
  topicPrefix: string;
  clientId?: string;
  /** As the subscriber's, when it was given one. */
  deadLetterTopic?: (topic: string) => string;
  /** How long reading a topic to its end may take before the command gives up (default 30 s). */
  readTimeoutMs?: number;
}

export interface KafkaDeadLetters {
  /** The group's dead letters not yet retried or skipped (all of them with `resolved`), oldest first. */
  list(options?: { resolved?: boolean }): Promise<DeadLetterRecord[]>;
  /** Puts these unresolved dead letters (by id, or all) back on their topics for the group; returns them. */
  retry(which: readonly string[] | 'all', by: string): Promise<DeadLetterRecord[]>;
  /** Marks these unresolved dead letters skipped, saying why; returns them. */
  skip(which: readonly string[], reason: string, by: string): Promise<DeadLetterRecord[]>;
  close(): Promise<void>;
}

const header = (message: KafkaMessage, name: string) => message.headers?.[name]?.toString();

/** The key its event had on its topic (on-the-wire.ts: the entity id), from the envelope; else its id. */
function entityKeyOf(letter: DeadLetterRecord): string {
  try {
    const { streamId } = JSON.parse(letter.raw) as { streamId?: unknown };
    if (typeof streamId === 'string' && streamId.includes('-')) return streamId.slice(streamId.indexOf('-') + 1);
  } catch {
    // Not an envelope: what did not parse is keyed by what names it.
  }
  return letter.eventId ?? letter.id;
}

export function kafkaDeadLetters(settings: KafkaDeadLettersSettings, log: Logger): KafkaDeadLetters {
  // Before any connection (kafka.ts says why).
  stopIdleRequestQueueLoop();
  const clientId = settings.clientId ?? `${settings.group}-dead-letters`;
  const kafka = new Kafka({ clientId, brokers: settings.brokers, logCreator: kafkaLogCreator(log) });
  const deadLetterTopic = settings.deadLetterTopic ?? defaultDeadLetterTopic;
  const letterTopics = [...MODELS.map((model) => topicOf(settings.topicPrefix, model)), `${settings.topicPrefix}unknown`].map(
    deadLetterTopic,
  );
  const resolutionsTopic = `${settings.topicPrefix}dead-letters.resolved`;
  const timeoutMs = settings.readTimeoutMs ?? 30_000;
  const producer = kafka.producer({
    allowAutoTopicCreation: true,
    idempotent: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  let connected: Promise<void> | undefined;

  /** Every message of the topics from their first kept offset to the end they have now. */
  async function readToEnd(topics: readonly string[]): Promise<Array<{ topic: string; partition: number; message: KafkaMessage }>> {
    const admin = kafka.admin();
    await admin.connect();
    const ends = new Map<string, bigint>();
    try {
      for (const topic of topics) {
        // A topic nobody wrote to yet does not exist: nothing to read there.
        const offsets = await admin.fetchTopicOffsets(topic).catch(() => []);
        for (const { partition, high, low } of offsets) if (BigInt(high) > BigInt(low)) ends.set(`${topic}:${partition}`, BigInt(high));
      }
    } finally {
      await admin.disconnect();
    }
    const read: Array<{ topic: string; partition: number; message: KafkaMessage }> = [];
    if (ends.size === 0) return read;
    // A group of its own each time, committing nothing: reading moves nobody's offsets. Its one
    // member joins as soon as the broker allows: a short session is all a reader needs.
    const consumer = kafka.consumer({
      groupId: `${clientId}-reader-${randomUUID()}`,
      allowAutoTopicCreation: false,
      sessionTimeout: 6_000,
      rebalanceTimeout: 6_000,
      heartbeatInterval: 500,
    });
    const waiting = new Set(ends.keys());
    try {
      await consumer.connect();
      await consumer.subscribe({
        topics: [...new Set([...ends.keys()].map((key) => key.slice(0, key.lastIndexOf(':'))))],
        fromBeginning: true,
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`could not read ${[...waiting].join(', ')} to its end within ${timeoutMs} ms`)),
          timeoutMs,
        );
        void consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ topic, partition, message }) => {
              read.push({ topic, partition, message });
              const key = `${topic}:${partition}`;
              if (BigInt(message.offset) + 1n >= (ends.get(key) ?? 0n)) waiting.delete(key);
              if (waiting.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return read;
  }

  async function records(resolved: boolean): Promise<DeadLetterRecord[]> {
    // One reader for both: each group it joins costs a rebalance.
    const read = await readToEnd([...letterTopics, resolutionsTopic]);
    const letters = read.filter(({ topic }) => topic !== resolutionsTopic);
    const resolutions = read.filter(({ topic }) => topic === resolutionsTopic);
    const done = new Map<string, DeadLetterResolution>();
    for (const { message } of resolutions) {
      const key = message.key?.toString() ?? '';
      if (key.startsWith(`${settings.group}\n`))
        done.set(key.slice(settings.group.length + 1), JSON.parse(message.value?.toString() ?? '{}'));
    }
    return letters
      .filter(({ message }) => header(message, HEADER_DEAD_LETTER_GROUP) === settings.group)
      .map(({ topic, partition, message }) => {
        const id = `${topic}:${partition}:${message.offset}`;
        const resolution = done.get(id);
        return {
          id,
          group: settings.group,
          eventId: header(message, 'event-id'),
          eventType: header(message, 'event-type'),
          reason: header(message, 'dead-letter-reason') ?? '',
          attempts: Number(header(message, 'dead-letter-attempts') ?? 0),
          originalTopic: header(message, 'original-topic') ?? '',
          time: new Date(Number(message.timestamp)).toISOString(),
          raw: message.value?.toString() ?? '',
          ...(resolution ? { resolution } : {}),
        };
      })
      .filter((record) => resolved || !record.resolution)
      .sort((a, b) => a.time.localeCompare(b.time));
  }

  /** The unresolved letters named (an unknown or resolved id is an error naming it). */
  async function named(which: readonly string[] | 'all'): Promise<DeadLetterRecord[]> {
    const open = await records(false);
    if (which === 'all') return open;
    const byId = new Map(open.map((record) => [record.id, record]));
    const missing = which.filter((id) => !byId.has(id));
    if (missing.length > 0) throw new Error(`no unresolved dead letter of group ${settings.group} is ${missing.join(', ')}`);
    return which.map((id) => byId.get(id)!);
  }

  async function send(topic: string, messages: Array<{ key: string; value: string; headers?: Record<string, string> }>): Promise<void> {
    connected ??= producer.connect();
    await connected;
    await producer.send({ topic, acks: -1, messages });
  }

  async function resolve(letters: DeadLetterRecord[], resolution: DeadLetterResolution): Promise<void> {
    if (letters.length === 0) return;
    await send(
      resolutionsTopic,
      letters.map((letter) => ({ key: `${settings.group}\n${letter.id}`, value: JSON.stringify(resolution) })),
    );
  }

  return {
    list: ({ resolved = false } = {}) => records(resolved),
    async retry(which, by) {
      const letters = await named(which);
      for (const letter of letters) {
        await send(letter.originalTopic || `${settings.topicPrefix}unknown`, [
          {
            // The entity's key, so that it goes to the partition its entity's events are on.
            key: entityKeyOf(letter),
            value: letter.raw,
            headers: {
              ...(letter.eventId ? { 'event-id': letter.eventId } : {}),
              ...(letter.eventType ? { 'event-type': letter.eventType } : {}),
              [HEADER_RETRY_FOR_GROUP]: settings.group,
              'retry-of': letter.id,
            },
          },
        ]);
      }
      await resolve(letters, { action: 'retried', by, at: new Date().toISOString() });
      return letters;
    },
    async skip(which, reason, by) {
      const letters = await named(which);
      await resolve(letters, { action: 'skipped', reason, by, at: new Date().toISOString() });
      return letters;
    },
    async close() {
      if (connected) await producer.disconnect();
    },
  };
}
