// Follows the event store from its checkpoint and keeps the read models. Resumes after any
// failure with bounded, jittered backoff; switches to a new generation when a rebuild promotes
// one (even from another process), resuming from that generation's checkpoint.
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { READ_MODELS_CHECKPOINT, type Collection, type ReadModelWriter, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { logTrail } from '@eventide/kernel/events/trail.ts';
import { inEventSpans, SpanKind } from '@eventide/platform/tracing/spans.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { batches } from '@eventide/stores/event-store/batches.ts';
import { runResilient } from './resilient.ts';
import { projectBatch, type StoredDocuments, targetOf } from './projection.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';

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

/** Applies one batch: load the touched documents, project, write them with the checkpoint. */
export async function applyBatch(writer: ReadModelWriter, events: RecordedEvent[], log?: Logger): Promise<void> {
  const ids: Record<Collection, string[]> = { users: [], products: [], orders: [] };
  for (const event of events) {
    const target = targetOf(event);
    if (target) ids[target.collection].push(target.id);
  }
  // Only the collections the batch touches are read.
  const load = async <C extends Collection>(collection: C) =>
    ids[collection].length > 0 ? writer.getMany(collection, ids[collection]) : new Map();
  const stored: StoredDocuments = { users: await load('users'), products: await load('products'), orders: await load('orders') };
  const outcome = projectBatch(events, stored);
  for (const gap of outcome.gaps) {
    log?.error(
      { streamId: gap.streamId, revision: gap.revision },
      'event arrived before the one it follows; the read model has lost data: rebuild it',
    );
  }
  // A deleted user is forgotten: the read store keeps no copy of what the deletion replaced.
  const erasing = events.some((e) => e.type === 'user:deleted');
  await writer.write(outcome.writes, { name: CHECKPOINT, position: events[events.length - 1]!.position }, { erasing });
}

export function startProjector({ eventStore, readStore, log }: { eventStore: EventStore; readStore: ReadStore; log: Logger }): Projector {
  const controller = new AbortController();
  const listeners = new Set<(position: number) => void>();
  let position = 0;
  const announce = () => {
    for (const listener of listeners) listener(position);
  };

  async function follow(generation: number): Promise<'switched' | 'stopped'> {
    const writer = readStore.writer(generation);
    position = await writer.checkpoint(CHECKPOINT);
    announce();
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    for await (const batch of batches(eventStore.subscribeToAll({ after: position, signal }), BATCH, () => session.abort())) {
      if ((await readStore.activeGeneration()) !== generation) return 'switched';
      try {
        await inEventSpans('project', SpanKind.CONSUMER, batch, () => applyBatch(writer, batch, log));
        logTrail(log, 'event projected', batch);
      } catch (error) {
        // A rebuild may have promoted a new generation and dropped this one under us.
        if ((await readStore.activeGeneration()) !== generation) return 'switched';
        throw error;
      }
      position = batch[batch.length - 1]!.position;
      announce();
    }
    return 'stopped';
  }

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
      controller.abort();
      await running;
    },
  };
}
