// Chooses the event bus adapter from configuration: Kafka when brokers are set, otherwise the
// in-process bus (subscribers in the same process; others follow GET /events).
import type { Config } from '@eventide/kernel/config.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { inProcessBus } from './in-process.ts';
import type { EventBus } from './port.ts';

/** The kind of bus the configuration chooses (EventBus.kind), without opening it: whose publisher checkpoint counts. */
export function busKindOf(config: Pick<Config, 'KAFKA_BROKERS'>): 'kafka' | 'in-process' {
  return config.KAFKA_BROKERS ? 'kafka' : 'in-process';
}

export async function openEventBus(config: Config, log: Logger): Promise<{ store: EventBus; description: string }> {
  if (config.KAFKA_BROKERS) {
    // Loaded only here: the embedded default never loads kafkajs.
    const { kafkaBus } = await import('./kafka.ts');
    const bus = kafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'eventide-publisher', topicPrefix: config.KAFKA_TOPIC_PREFIX }, log);
    return { store: bus, description: `Kafka at ${config.KAFKA_BROKERS.join(',')}, topics ${config.KAFKA_TOPIC_PREFIX}<model>` };
  }
  return { store: inProcessBus({ log }), description: 'in-process' };
}
