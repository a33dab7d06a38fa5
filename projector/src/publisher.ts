// Publishes the nine public events to the event bus, following the event store from a
// checkpoint of its own (kept apart from the read models, so a rebuild does not republish).
// At least once: the checkpoint moves only after the brokers acknowledged the batch, so a
// publisher killed anywhere republishes at most the batch it was in; subscribers drop those
// duplicates by event id.
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { toEnvelope } from '@eventide/shared/events/envelope.ts';
import type { BusProducer } from '@eventide/shared/event-bus/kafka-producer.ts';
import type { Logger } from '@eventide/shared/log.ts';
import type { AnyEventEnvelope } from '@eventide/shared/events/catalogue.ts';
import { batches } from './batches.ts';
import { runResilient } from './resilient.ts';

export const PUBLISHER_CHECKPOINT = 'event-bus-publisher';
const BATCH = 500;

export interface Checkpoints {
  loadCheckpoint(name: string): Promise<number>;
  saveCheckpoint(name: string, position: number): Promise<void>;
}

export interface Publisher {
  position(): number;
  stop(): Promise<void>;
}

export function startPublisher(options: {
  eventStore: EventStore;
  checkpoints: Checkpoints;
  producer: BusProducer;
  log: Logger;
}): Publisher {
  const { eventStore, checkpoints, producer, log } = options;
  const controller = new AbortController();
  let position = 0;

  async function follow(): Promise<void> {
    position = await checkpoints.loadCheckpoint(PUBLISHER_CHECKPOINT);
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    for await (const batch of batches(eventStore.subscribeToAll({ after: position, signal }), BATCH, () => session.abort())) {
      const envelopes = batch.map(toEnvelope).filter((e): e is AnyEventEnvelope => e !== undefined);
      if (envelopes.length > 0) await producer.publish(envelopes);
      const last = batch[batch.length - 1]!.position;
      await checkpoints.saveCheckpoint(PUBLISHER_CHECKPOINT, last);
      position = last;
    }
  }

  const running = runResilient('publisher', controller.signal, log, follow);

  return {
    position: () => position,
    async stop() {
      controller.abort();
      await running;
    },
  };
}
