// Where the read models are, as progressOf answers it: from the store, or from what the store said
// last while the projector in this process has announced no batch since.
import { describe, expect, it } from 'vitest';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import { progressSignal } from '@eventide/runtime/compose.ts';
import { progressOf } from './consistency.ts';

/** A store whose served checkpoint is `at.position`, counting how often it is asked. */
function storeAt(at: { position: number }) {
  const asked = { count: 0 };
  const store = {
    async servedCheckpoint() {
      asked.count++;
      return at.position;
    },
  } as unknown as ReadStore;
  return { store, asked };
}

describe('progressOf', () => {
  it('asks the store on every read where no projector in this process announces its batches', async () => {
    const at = { position: 5 };
    const { store, asked } = storeAt(at);
    const progress = progressOf(store, progressSignal());
    expect(await progress.current()).toBe(5);
    at.position = 6; // a projector in another process
    expect(await progress.current()).toBe(6);
    expect(asked.count).toBe(2);
  });

  it('keeps what the store said between two announced batches, and asks again after each', async () => {
    const at = { position: 5 };
    const { store, asked } = storeAt(at);
    const projector = progressSignal();
    const progress = progressOf(store, projector);
    at.position = 7;
    projector.notify();
    expect(await progress.current()).toBe(7);
    expect(await progress.current()).toBe(7);
    expect(await progress.current()).toBe(7);
    expect(asked.count).toBe(1);

    at.position = 9;
    projector.notify();
    expect(await progress.current()).toBe(9);
    expect(await progress.current()).toBe(9);
    expect(asked.count).toBe(2);
  });

  it('keeps what the store said when the projector announced its start before this service opened, and stayed silent', async () => {
    // Services open in turn: on read models that are caught up, the projector's one announcement
    // comes before the query service exists, and no batch follows it.
    const at = { position: 7 };
    const { store, asked } = storeAt(at);
    const projector = progressSignal();
    projector.notify();
    const progress = progressOf(store, projector);
    expect(await progress.current()).toBe(7);
    expect(await progress.current()).toBe(7);
    expect(asked.count).toBe(1);
  });

  it('asks the store whenever a read waits for a position', async () => {
    const at = { position: 7 };
    const { store, asked } = storeAt(at);
    const projector = progressSignal();
    const progress = progressOf(store, projector);
    projector.notify();
    expect(await progress.current()).toBe(7);
    at.position = 8; // a rebuild elsewhere promoted a generation further on; no batch here yet
    expect(await progress.waitFor(8, 1000)).toBe(8);
    expect(asked.count).toBe(2);
  });
});
