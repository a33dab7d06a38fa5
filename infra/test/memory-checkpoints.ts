// Checkpoints held in memory, for tests and benchmarks that need a publisher of their own. With
// `failingSaves`, the first saves throw, as a publisher killed after the brokers' ack and before
// its checkpoint would leave things.
import type { Checkpoints } from '@eventide/projector/src/publisher.ts';

export function memoryCheckpoints(failingSaves = 0): Checkpoints {
  const saved = new Map<string, number>();
  return {
    loadCheckpoint: async (name) => saved.get(name) ?? 0,
    saveCheckpoint: async (name, position) => {
      if (failingSaves-- > 0) throw new Error('killed after the ack, before the checkpoint');
      saved.set(name, Math.max(saved.get(name) ?? 0, position));
    },
  };
}
