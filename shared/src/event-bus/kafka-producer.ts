// Publishes envelopes to Kafka (kafkajs): a topic per model, the entity id as key, the event
// type and id in headers, the envelope as JSON. acks=all, and one request in flight so that a
// retried request cannot overtake a later one: one entity's events stay in order.
import { Kafka, Partitioners, type Producer } from 'kafkajs';
import type { AnyEventEnvelope } from '../events/catalogue.ts';
import { entityIdOf, modelOf } from '../events/envelope.ts';
import type { Logger } from '../log.ts';
import { kafkaLogCreator } from './kafka-log.ts';

export const HEADER_EVENT_TYPE = 'event-type';
export const HEADER_EVENT_ID = 'event-id';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  /** Topics are `<prefix><model>`: eventide.user, eventide.order, eventide.product by default. */
  topicPrefix: string;
}

export function topicOf(prefix: string, model: string): string {
  return `${prefix}${model}`;
}

export interface BusProducer {
  /** Resolves once the brokers have acknowledged every envelope. */
  publish(envelopes: AnyEventEnvelope[]): Promise<void>;
  close(): Promise<void>;
}

export async function kafkaProducer(settings: KafkaSettings, log: Logger): Promise<BusProducer> {
  const kafka = new Kafka({ clientId: settings.clientId, brokers: settings.brokers, logCreator: kafkaLogCreator(log) });
  // Not idempotent: brokers without a controller (librdkafka's mock cluster) refuse it; order is
  // kept by one request in flight instead, and consumers drop duplicates by event id.
  const producer: Producer = kafka.producer({
    allowAutoTopicCreation: true,
    idempotent: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return {
    async publish(envelopes) {
      const byTopic = new Map<string, Array<{ key: string; value: string; headers: Record<string, string> }>>();
      for (const envelope of envelopes) {
        const topic = topicOf(settings.topicPrefix, modelOf(envelope));
        const messages = byTopic.get(topic) ?? [];
        messages.push({
          key: entityIdOf(envelope),
          value: JSON.stringify(envelope),
          headers: { [HEADER_EVENT_TYPE]: envelope.type, [HEADER_EVENT_ID]: envelope.id },
        });
        byTopic.set(topic, messages);
      }
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    },
    close: () => producer.disconnect(),
  };
}
