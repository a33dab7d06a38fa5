// Starts the Kafka publisher when KAFKA_BROKERS is configured; nothing otherwise.
import type { Config } from '@eventide/shared/config.ts';
import { kafkaProducer } from '@eventide/shared/event-bus/kafka-producer.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { Logger } from '@eventide/shared/log.ts';
import type { ReadStore } from '@eventide/shared/read-store/port.ts';
import { startPublisher } from './publisher.ts';

/** Returns what stops it (a no-op when Kafka is not configured). */
export async function startKafkaPublisher(
  config: Config,
  eventStore: EventStore,
  readStore: ReadStore,
  log: Logger,
): Promise<() => Promise<void>> {
  if (!config.KAFKA_BROKERS) return async () => {};
  const producer = await kafkaProducer(
    { brokers: config.KAFKA_BROKERS, clientId: 'eventide-publisher', topicPrefix: config.KAFKA_TOPIC_PREFIX },
    log,
  );
  const publisher = startPublisher({ eventStore, checkpoints: readStore, producer, log });
  log.info({ brokers: config.KAFKA_BROKERS, topicPrefix: config.KAFKA_TOPIC_PREFIX }, 'publishing events to Kafka');
  return async () => {
    await publisher.stop();
    await producer.close();
  };
}
