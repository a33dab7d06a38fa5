// Follows the event store from its checkpoint and keeps the read models. Resumes after any
// failure with bounded, jittered backoff; switches to a new generation when a rebuild promotes
// one (even from another process), resuming from that generation's checkpoint. An event it cannot
// project is parked in the generation's lot, its entity's later events held behind it, and every
// other entity goes on (parking.ts); the checkpoint passes them, since the lot accounts for them.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { READ_MODELS_CHECKPOINT, type Collection, type ReadModelWriter, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { logTrail } from '@eventide/kernel/events/trail.ts';
import { inEventSpans, SpanKind } from '@eventide/stores/tracing/event-spans.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { batches } from '@eventide/stores/event-store/batches.ts';
import { eventAt } from '@eventide/stores/event-store/event-at.ts';
import { lotOf, followerOf, type ParkedEvents } from '@eventide/stores/parked/port.ts';
import { Mutex } from 'async-mutex';
import { runResilient } from '@eventide/runtime/followers/resilient.ts';
import { projectBatch, type StoredDocuments, targetOf } from './projection.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { ParkingLot, type Handling } from '@eventide/runtime/followers/parking.ts';
import { servingRequests, type Following } from '@eventide/runtime/followers/follower.ts';

export const CHECKPOINT = READ_MODELS_CHECKPOINT;
const BATCH = 500;

export interface Projector {
  /** The global position the read models have reached. */
  position(): number;
  /**
   * Called with the position it resumes from each time it starts following a generation, and
   * after every batch that moved the position: between two calls, the read models it keeps stand
   * still (the query service keeps what it read of them till the next call, consistency.ts).
   */
  onProgress(listener: (position: number) => void): () => void;
  stop(): Promise<void>;
}

/**
 * Applies one batch: load the touched documents, project, write them with the checkpoint (the last
 * event's position, or `position` when events after it were parked). `skipped`: positions of
 * events an operator skipped, which change nothing but their entity's version.
 */
export async function applyBatch(
  writer: ReadModelWriter,
  events: RecordedEvent[],
  log?: Logger,
  { position = events[events.length - 1]?.position ?? 0, skipped }: { position?: number; skipped?: ReadonlySet<number> } = {},
): Promise<void> {
  const ids: Record<Collection, string[]> = { users: [], products: [], orders: [] };
  for (const event of events) {
    const target = targetOf(event);
    if (target) ids[target.collection].push(target.id);
  }
  // Only the collections the batch touches are read.
  const load = async <C extends Collection>(collection: C) =>
    ids[collection].length > 0 ? writer.getMany(collection, ids[collection]) : new Map();
  const stored: StoredDocuments = { users: await load('users'), products: await load('products'), orders: await load('orders') };
  const outcome = projectBatch(events, stored, skipped);
  for (const gap of outcome.gaps) {
    log?.error(
      { streamId: gap.streamId, revision: gap.revision },
      'event arrived before the one it follows; the read model has lost data: rebuild it',
    );
  }
  // A deleted user is forgotten: the read store keeps no copy of what the deletion replaced.
  const erasing = events.some((e) => e.type === 'user:deleted');
  await writer.write(outcome.writes, { name: CHECKPOINT, position }, { erasing });
}

/** How the projector handles events of a generation, for parking.ts: applied, read again, skipped, probed. */
export function projection(writer: ReadModelWriter, eventStore: EventStore, log?: Logger): Handling {
  return {
    handle: (events) => applyBatch(writer, events, log),
    probe: () => writer.checkpoint(CHECKPOINT),
    read: (position) => eventAt(eventStore, position),
    skip: (event) => applyBatch(writer, [event], log, { skipped: new Set([event.position]) }),
  };
}

/**
 * Projects a batch through the generation's lot (parking.ts): what cannot be projected is parked,
 * and the checkpoint passes the whole batch, parked events included, since the lot accounts for them.
 */
export async function projectParking(
  lot: ParkingLot,
  writer: ReadModelWriter,
  handling: Handling,
  batch: RecordedEvent[],
  signal?: AbortSignal,
): Promise<void> {
  const end = batch[batch.length - 1]!.position;
  let written = 0;
  const writing: Handling = {
    ...handling,
    async handle(events) {
      await handling.handle(events);
      written = events[events.length - 1]!.position;
    },
  };
  await lot.handleBatch(batch, writing, signal);
  if (written !== end) await writer.write([], { name: CHECKPOINT, position: end });
}

/** Lets go of the lots of generations older than `generation`: a promotion dropped their read models. */
async function forgetOlderLots(parked: ParkedEvents, generation: number): Promise<void> {
  for (const lot of (await parked.counts()).keys()) {
    const { follower, generation: of } = followerOf(lot);
    if (follower === 'projector' && of !== undefined && of < generation) await parked.forget(lot);
  }
}

export function startProjector({
  eventStore,
  readStore,
  parked,
  log,
}: {
  eventStore: EventStore;
  readStore: ReadStore;
  parked: ParkedEvents;
  log: Logger;
}): Projector {
  const controller = new AbortController();
  const listeners = new Set<(position: number) => void>();
  const mutex = new Mutex();
  let position = 0;
  let current: Following | undefined;
  const announce = () => {
    for (const listener of listeners) listener(position);
  };

  async function follow(generation: number): Promise<'switched' | 'stopped'> {
    const writer = readStore.writer(generation);
    position = await writer.checkpoint(CHECKPOINT);
    await forgetOlderLots(parked, generation);
    const lot = await ParkingLot.open(lotOf('projector', generation), parked, log);
    const handling = projection(writer, eventStore, log);
    // What a newer release wrote, or failed to project, may be projected now.
    await mutex.runExclusive(() => lot.serveRequests(handling, { everything: true }));
    current = { lot, handling };
    announce();
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    // Its events in hand, it says a write is coming, so that the read store's work between writes
    // waits for the write instead of running in front of it (read-store/between-writes.ts).
    const subscription = eventStore.subscribeToAll({ after: position, signal, onEvents: () => writer.expectWrite?.() });
    for await (const batch of batches(subscription, BATCH, () => session.abort())) {
      if ((await readStore.activeGeneration()) !== generation) return 'switched';
      const end = batch[batch.length - 1]!.position;
      try {
        await mutex.runExclusive(() =>
          inEventSpans('project', SpanKind.CONSUMER, batch, () => projectParking(lot, writer, handling, batch, signal)),
        );
        logTrail(log, 'event projected', batch);
      } catch (error) {
        // A rebuild may have promoted a new generation and dropped this one under us.
        if ((await readStore.activeGeneration()) !== generation) return 'switched';
        throw error;
      }
      position = end;
      announce();
    }
    return 'stopped';
  }

  const stopServing = servingRequests(mutex, () => current, log);

  // A promoted generation ends follow(); the next round follows the new one.
  const running = runResilient('projector', controller.signal, log, async () => {
    if ((await follow(await readStore.activeGeneration())) === 'switched') {
      log.info({ generation: await readStore.activeGeneration() }, 'projector: following the promoted generation');
    }
  });

  return {
    position: () => position,
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopServing();
      controller.abort();
      await running;
    },
  };
}
