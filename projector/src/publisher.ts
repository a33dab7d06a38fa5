// Publishes the nine public events to the event bus, following the event store from a
// checkpoint of its own per kind of bus (kept apart from the read models, so a rebuild does not
// republish, and a move from the in-process bus to Kafka publishes the whole log to Kafka).
// Personal fields travel sealed, as they are at rest (docs/events.md): the subscriber SDK opens
// them with the key store, and once the person is forgotten nobody can, whatever the bus retained.
// At least once: the checkpoint moves only after the bus holds the batch, so a publisher killed
// anywhere republishes at most the batch it was in; subscribers drop those duplicates by event id.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { toEnvelope } from '@eventide/kernel/events/envelope.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';
import { logTrail } from '@eventide/kernel/events/trail.ts';
import { inEventSpans, SpanKind } from '@eventide/stores/tracing/event-spans.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import { publisherCheckpoint } from '@eventide/stores/read-store/follower-checkpoints.ts';
import { startFollower, type Checkpoints, type Follower } from '@eventide/runtime/followers/follower.ts';

export type { Checkpoints } from '@eventide/runtime/followers/follower.ts';
export type Publisher = Follower;

export function startPublisher(options: {
  eventStore: EventStore;
  checkpoints: Checkpoints;
  parked: ParkedEvents;
  bus: Pick<EventBus, 'kind' | 'publish' | 'ping'>;
  log: Logger;
}): Publisher {
  const { eventStore, checkpoints, parked, bus, log } = options;
  return startFollower({
    name: 'publisher',
    parked,
    // Kafka's brokers answer, or the bus is in this process: then an event that fails is the event's fault.
    probe: async () => bus.ping?.(),
    checkpoint: publisherCheckpoint(bus.kind),
    eventStore,
    // The bus carries personal fields sealed: what it keeps cannot be read once the person is forgotten.
    keepSealed: true,
    checkpoints,
    log,
    async handle(batch) {
      const envelopes = batch.map(toEnvelope).filter((e): e is AnyEventEnvelope => e !== undefined);
      if (envelopes.length === 0) return;
      // Each message carries its publish span's traceparent, so that its subscribers' spans nest under it.
      const sent = await inEventSpans('publish', SpanKind.PRODUCER, envelopes, async (traceparents) => {
        const traced = envelopes.map((e, i) => (traceparents[i] ? { ...e, metadata: { ...e.metadata, traceparent: traceparents[i] } } : e));
        await bus.publish(traced);
        return traced;
      });
      logTrail(log, 'event published', sent, { bus: bus.kind });
    },
  });
}
