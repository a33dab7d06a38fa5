// The contract of EventStore.longestStreams, for the adapters that can tell (the embedded store).
import { describe, expect, it } from 'vitest';
import { event, stream } from './contract.ts';
import type { EventStoreHarness } from './contract-harness.ts';

export function longestStreamsContract(name: string, open: () => Promise<EventStoreHarness>): void {
  describe(`EventStore contract, the longest streams: ${name}`, () => {
    it('ranks the streams it keeps snapshots of by length', async () => {
      const { store, dispose } = await open();
      try {
        const [long, longer, short] = [stream(), stream(), stream()];
        const fill = async (s: string, n: number, snapshotAt?: number) => {
          await store.append(
            s,
            Array.from({ length: n }, (_, i) => event('e', { i })),
            { expectedRevision: 'no_stream' },
          );
          if (snapshotAt === undefined) return;
          const at = (await store.readStream(s, { fromRevision: snapshotAt, toRevision: snapshotAt }))[0]!;
          await store.saveSnapshot(s, { version: 'v1', revision: snapshotAt, position: at.position, time: at.time, state: {} });
        };
        // The longer stream's snapshot is the older one: its length counts, not where its snapshot is.
        await fill(long, 40, 35);
        await fill(longer, 50, 32);
        await fill(short, 3);
        const ranked = (await store.longestStreams!(1000)).filter((x) => [long, longer, short].includes(x.streamId));
        expect(ranked).toEqual([
          { streamId: longer, events: 50 },
          { streamId: long, events: 40 },
        ]);
        // A page of one: the longer, though its snapshot is older.
        expect(await store.longestStreams!(1)).toEqual([{ streamId: longer, events: 50 }]);
      } finally {
        await dispose();
      }
    });
  });
}
