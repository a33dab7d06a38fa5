// handle() when another writer gets in between its read and its append: never a silent
// overwrite, but 409 (unconditional) or 412 (If-Match), and nothing of its own written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { Refusal } from '@eventide/kernel/models/refusal.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { handle } from './handle.ts';
import { productAggregate } from './product/decide.ts';
import { PRODUCT } from '@eventide/kernel/entities/product.ts';
import { notingReads } from './testing/reads.ts';

const metadata = { correlationId: 'c', actor: { type: 'anonymous' as const } };
let dir: string;
let store: EventStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventide-handle-'));
  store = openSqliteEventStore({ path: join(dir, 'events.db') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A store on which another writer changes the stream right after handle() has read it. */
function racing(inner: EventStore): EventStore {
  let raced = false;
  return {
    ...inner,
    async readStream(streamId) {
      const events = await inner.readStream(streamId);
      if (!raced && events.length > 0) {
        raced = true;
        const data = { productId: streamId.slice('product-'.length), changes: { name: 'Theirs' } };
        await inner.append(streamId, [{ id: newId(), type: 'product:updated', data, metadata: { ...metadata, causationId: 'other' } }], {
          expectedRevision: events.length - 1,
        });
      }
      return events;
    },
  };
}

async function createProduct(): Promise<string> {
  const productId = newId();
  const details = PRODUCT.complete({ name: 'Mine', price: { amount: 1, currency: 'EUR' } });
  await handle(store, productAggregate, productId, { type: 'CreateProduct', productId, details }, { metadata });
  return productId;
}

async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Refusal);
  return error as Refusal;
}

describe('handle() under a concurrent write', () => {
  it('answers 409 without If-Match and writes nothing of its own', async () => {
    const productId = await createProduct();
    const error = await refusal(
      handle(racing(store), productAggregate, productId, { type: 'ChangeProduct', changes: { name: 'Ours' } }, { metadata }),
    );
    expect(error.kind).toBe('conflict');
    expect(error.message).toMatch(/changed by another request at the same time/);
    const events = await store.readStream(`product-${productId}`);
    expect(events.map((e) => (e.data as { changes?: { name: string } }).changes?.name)).toEqual([undefined, 'Theirs']);
  });

  it('answers 412 with If-Match', async () => {
    const productId = await createProduct();
    const error = await refusal(
      handle(racing(store), productAggregate, productId, { type: 'ChangeProduct', changes: { name: 'Ours' } }, { metadata, ifMatch: [0] }),
    );
    expect(error.kind).toBe('stale');
    expect(await store.readStream(`product-${productId}`)).toHaveLength(2);
  });

  it('writes what appendFirst returns only together with its own events', async () => {
    const productId = await createProduct();
    const claim = `claim-${newId()}`;
    const claimEvent = () => ({ id: newId(), type: 'test:claimed', data: {}, metadata: { ...metadata, causationId: 'ours' } });
    const error = await refusal(
      handle(
        racing(store),
        productAggregate,
        productId,
        { type: 'ChangeProduct', changes: { name: 'Ours' } },
        { metadata },
        { appendFirst: async () => [{ streamId: claim, events: [claimEvent()], expectedRevision: 'no_stream' }] },
      ),
    );
    expect(error.kind).toBe('conflict');
    // The embedded store commits both or neither: the refused command left no claim behind.
    expect(await store.readStream(claim)).toEqual([]);
  });
});

describe('handle() with appends to other streams first', () => {
  it('asks appendFirst again when another request changed its stream in between, and writes both', async () => {
    const claim = `claim-${newId()}`;
    const claimEvent = (causationId: string) => ({ id: newId(), type: 'test:claimed', data: {}, metadata: { ...metadata, causationId } });
    let asked = 0;
    const productId = newId();
    const details = PRODUCT.complete({ name: 'Mine', price: { amount: 1, currency: 'EUR' } });
    const result = await handle(
      store,
      productAggregate,
      productId,
      { type: 'CreateProduct', productId, details },
      { metadata },
      {
        async appendFirst() {
          asked++;
          const last = (await store.readStream(claim)).at(-1);
          // The first time, another request claims right after this one has read the claim stream.
          if (asked === 1) await store.append(claim, [claimEvent('theirs')], { expectedRevision: 'no_stream' });
          return [{ streamId: claim, events: [claimEvent('ours')], expectedRevision: last ? last.revision : 'no_stream' }];
        },
      },
    );
    expect(asked).toBe(2);
    expect(result.changed).toBe(true);
    expect((await store.readStream(claim)).map((e) => e.metadata.causationId)).toEqual(['theirs', 'ours']);
    expect(await store.readStream(`product-${productId}`)).toHaveLength(1);
  });
});

describe('handle() creating an entity whose id it was just given (unwritten)', () => {
  const details = PRODUCT.complete({ name: 'New', price: { amount: 1, currency: 'EUR' } });

  it('reads nothing of the stream, and writes the entity as new', async () => {
    const { store: counting, reads } = notingReads(store);
    const productId = newId();
    const result = await handle(
      counting,
      productAggregate,
      productId,
      { type: 'CreateProduct', productId, details },
      { metadata, unwritten: true },
    );
    expect(reads).toEqual([]);
    expect(result).toMatchObject({ revision: 0, changed: true, state: { name: 'New' } });
    expect(await store.readStream(`product-${productId}`)).toHaveLength(1);
  });

  it('answers 409 and overwrites nothing when the stream exists after all', async () => {
    const productId = await createProduct();
    const error = await refusal(
      handle(store, productAggregate, productId, { type: 'CreateProduct', productId, details }, { metadata, unwritten: true }),
    );
    expect(error.kind).toBe('conflict');
    const events = await store.readStream(`product-${productId}`);
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ name: 'Mine' })]);
  });
});
