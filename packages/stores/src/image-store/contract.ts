// The contract every ImageStore passes.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ImageStore } from './port.ts';

export interface ImageStoreHarness {
  store: ImageStore;
  /** Another store on the same place, as another process opens it. */
  another(): Promise<ImageStore>;
  dispose(): Promise<void>;
}

const newId = () => randomBytes(16).toString('hex');

export function imageStoreContract(name: string, open: () => Promise<ImageStoreHarness>): void {
  describe(`ImageStore contract: ${name}`, () => {
    async function withStore(body: (harness: ImageStoreHarness) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness);
      } finally {
        await harness.dispose();
      }
    }

    it('gives back each rendition as it was kept, to another store on the same place too', () =>
      withStore(async (harness) => {
        const id = newId();
        const small = randomBytes(2_000);
        const large = randomBytes(300_000);
        await harness.store.put(id, { small, large });
        expect(await harness.store.get(id, 'small')).toEqual(small);
        const another = await harness.another();
        try {
          expect(await another.get(id, 'large')).toEqual(large);
        } finally {
          await another.close();
        }
      }));

    it('answers undefined for a picture it does not keep, and forgets one deleted', () =>
      withStore(async ({ store }) => {
        expect(await store.get(newId(), 'small')).toBeUndefined();
        const id = newId();
        await store.put(id, { small: Buffer.from('s'), large: Buffer.from('l') });
        await store.delete(id);
        expect(await store.get(id, 'small')).toBeUndefined();
        expect(await store.get(id, 'large')).toBeUndefined();
        // Deleting what is not there is not an error: a retried clean-up.
        await store.delete(id);
      }));

    it('keeps a picture put twice (a retried upload) as the last put', () =>
      withStore(async ({ store }) => {
        const id = newId();
        await store.put(id, { small: Buffer.from('one'), large: Buffer.from('one') });
        await store.put(id, { small: Buffer.from('two'), large: Buffer.from('two') });
        expect((await store.get(id, 'small'))?.toString()).toBe('two');
      }));
  });
}
