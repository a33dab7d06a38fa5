// A Kafka consumer group's dead letters, for its operator: what the subscriber gave up on, with why,
// to retry once the cause is fixed or to skip saying why (stores/event-bus/kafka-dead-letters.ts).
// The `eventide-dead-letters` command (dead-letters-cli.ts) is this from a shell.
import { createLogger, type Logger } from '@eventide/kernel/log.ts';
import { kafkaDeadLetters, type KafkaDeadLetters } from '@eventide/stores/event-bus/kafka-dead-letters.ts';

export type { DeadLetterRecord, DeadLetterResolution, KafkaDeadLetters } from '@eventide/stores/event-bus/kafka-dead-letters.ts';

export interface DeadLettersOptions {
  brokers: string[];
  /** The subscriber's consumer group. */
  groupId: string;
  /** As the subscriber's; default "eventide.". */
  topicPrefix?: string;
  log?: Logger;
}

export function deadLetters(options: DeadLettersOptions): KafkaDeadLetters {
  return kafkaDeadLetters(
    { brokers: options.brokers, group: options.groupId, topicPrefix: options.topicPrefix ?? 'eventide.' },
    options.log ?? createLogger({ name: 'dead-letters', level: 'warn' }),
  );
}
