// A follower of the log with a checkpoint of its own (the publisher, the forgetter): it reads what
// came after its checkpoint in batches, hands each batch on, and only then moves the checkpoint, so
// one stopped anywhere handles at most the batch it was in again. After a failure it starts again
// from the checkpoint (resilient.ts).
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { batches } from '@eventide/stores/event-store/batches.ts';
import { progressSignal } from '@eventide/runtime/compose.ts';
import { runResilient } from './resilient.ts';

const BATCH = 500;

export interface Checkpoints {
  loadCheckpoint(name: string): Promise<number>;
  saveCheckpoint(name: string, position: number): Promise<void>;
}

export interface Follower {
  /** The position of the last event handled. */
  position(): number;
  /** Calls `listener` each time the checkpoint has moved; returns what stops it. */
  onProgress(listener: () => void): () => void;
  stop(): Promise<void>;
}

export function startFollower(options: {
  /** For the logs. */
  name: string;
  checkpoint: string;
  eventStore: EventStore;
  /** Hand on personal fields sealed, as they are at rest (the publisher, the forgetter), not opened. */
  keepSealed?: boolean;
  checkpoints: Checkpoints;
  log: Logger;
  handle(batch: RecordedEvent[]): Promise<void>;
}): Follower {
  const { name, checkpoint, eventStore, checkpoints, log, handle, keepSealed = false } = options;
  const controller = new AbortController();
  const progress = progressSignal();
  let position = 0;

  async function follow(): Promise<void> {
    position = await checkpoints.loadCheckpoint(checkpoint);
    const session = new AbortController();
    const signal = AbortSignal.any([controller.signal, session.signal]);
    for await (const batch of batches(eventStore.subscribeToAll({ after: position, signal, keepSealed }), BATCH, () => session.abort())) {
      await handle(batch);
      const last = batch[batch.length - 1]!.position;
      await checkpoints.saveCheckpoint(checkpoint, last);
      position = last;
      progress.notify();
    }
  }

  const running = runResilient(name, controller.signal, log, follow);
  return {
    position: () => position,
    onProgress: progress.subscribe,
    async stop() {
      controller.abort();
      await running;
    },
  };
}
