import { describe, expect, it } from 'vitest';
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import { newId } from '@eventide/kernel/ids.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { openSqliteEventStore } from './sqlite.ts';
import { versionedEventStore } from './versioned.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';

const metadata: EventMetadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } };
const v1Product = { productId: 'p1', name: 'Kettle', description: '', price: { amount: 2999, currency: 'EUR' }, sku: null, category: null };
const event = (type: string, data: NewEvent['data']): NewEvent => ({ id: newId(), type, data, metadata });
/** What this release writes of each, and what a version 1 product reads as at it. */
const CREATED = currentSchemaVersion('product:created');
const UPDATED = currentSchemaVersion('product:updated');
const v1AsCurrent = { ...v1Product, taxRate: null, images: [] };

describe('the versioned event store', () => {
  it('reads what an older release wrote as the current version, everywhere, leaving the store as it was', async () => {
    const raw = openSqliteEventStore({ path: ':memory:' });
    // As a release before versions wrote them: no schemaVersion, no taxRate.
    await raw.append(
      'product-p1',
      [event('product:created', v1Product), event('product:updated', { productId: 'p1', changes: { name: 'K' } })],
      {
        expectedRevision: 'no_stream',
      },
    );
    await raw.append('email-x', [event('email:claimed', { userId: 'u1' })], { expectedRevision: 'no_stream' });
    const store = versionedEventStore(raw);

    const stream = await store.readStream('product-p1');
    expect(stream.map((e) => [e.metadata.schemaVersion, e.data])).toEqual([
      [CREATED, v1AsCurrent],
      [UPDATED, { productId: 'p1', changes: { name: 'K' } }],
    ]);
    expect((await store.readAll()).map((e) => e.metadata.schemaVersion)).toEqual([CREATED, UPDATED, undefined]);
    expect((await store.readCausedBy('product-p1', 'c'))[0]!.data).toMatchObject({ taxRate: null });
    const controller = new AbortController();
    const followed: unknown[] = [];
    for await (const recorded of store.subscribeToAll({ signal: controller.signal })) {
      followed.push(recorded.data);
      if (followed.length === 3) controller.abort();
    }
    expect(followed[0]).toEqual(v1AsCurrent);
    // A private event passes through as it is.
    expect(followed[2]).toEqual({ userId: 'u1' });
    // The store itself still holds version 1.
    expect((await raw.readStream('product-p1'))[0]!.data).toEqual(v1Product);
    await store.close();
  });

  it('marks what it appends with the current version, and reads it back untouched', async () => {
    const store = versionedEventStore(openSqliteEventStore({ path: ':memory:' }));
    await store.append('product-p2', [event('product:created', { ...v1Product, productId: 'p2', taxRate: 20, images: [] })], {
      expectedRevision: 'no_stream',
    });
    await store.appendInOrder([
      { streamId: 'order-o1', expectedRevision: 'no_stream', events: [event('order:deleted', { orderId: 'o1' })] },
    ]);
    const all = await store.readAll();
    expect(all.map((e) => [e.type, e.metadata.schemaVersion])).toEqual([
      ['product:created', CREATED],
      ['order:deleted', 1],
    ]);
    expect(all[0]!.data).toMatchObject({ taxRate: 20 });
    await store.close();
  });

  it('gives the followers an event a newer release wrote, marked unreadable, and refuses to fold it in a stream read', async () => {
    const raw = openSqliteEventStore({ path: ':memory:' });
    await raw.append('product-p3', [event('product:created', { ...v1Product, productId: 'p3', taxRate: 20 })], {
      expectedRevision: 'no_stream',
    });
    // The next release's version of product:updated.
    const newer = {
      ...event('product:updated', { productId: 'p3', changes: { name: 'K3' } }),
      metadata: { ...metadata, schemaVersion: UPDATED + 1 },
    };
    await raw.append('product-p3', [newer], { expectedRevision: 0 });
    const store = versionedEventStore(raw);
    const all = await store.readAll();
    expect(all.map((e) => e.unreadable)).toEqual([
      undefined,
      expect.stringMatching(new RegExp(`product:updated version ${UPDATED + 1} is newer than this release knows \\(${UPDATED}\\)`)),
    ]);
    // As written: its data and version untouched.
    expect(all[1]).toMatchObject({ data: { productId: 'p3', changes: { name: 'K3' } }, metadata: { schemaVersion: UPDATED + 1 } });
    await expect(store.readStream('product-p3')).rejects.toThrow(/newer than this release knows/);
    // A console's read of the stream shows it, marked, instead.
    expect((await store.readStream('product-p3', { unreadable: 'mark' })).map((e) => e.unreadable === undefined)).toEqual([true, false]);
    await store.close();
  });
});
