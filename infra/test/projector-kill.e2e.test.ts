// The projector killed (SIGKILL) in the middle of 10,000 events and restarted loses nothing and
// doubles nothing: its read models end equal to a clean replay of the same events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { versionedEventStore } from '@eventide/stores/event-store/versioned.ts';
import type { NewEvent, RecordedEvent } from '@eventide/kernel/events/recorded.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { openSqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { applyBatch } from '@eventide/projector/src/projector.ts';
import { ENTRY, spawnService } from './process.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-projector-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRODUCTS = 2000;
const UPDATES = 4; // 2,000 × (1 + 4) = 10,000 events
const metadata = { correlationId: 'kill-test', causationId: 'kill-test', actor: { type: 'anonymous' as const } };

function eventsOf(productId: string): NewEvent[] {
  const created: NewEvent = {
    id: newId(),
    type: 'product:created',
    data: {
      productId,
      name: `Product ${productId.slice(0, 8)}`,
      description: '',
      price: { amount: 0, currency: 'EUR' },
      sku: null,
      category: null,
    },
    metadata,
  };
  const updates = Array.from(
    { length: UPDATES },
    (_, i): NewEvent => ({
      id: newId(),
      type: 'product:updated',
      data: { productId, changes: { price: { amount: i + 1, currency: 'EUR' } } },
      metadata,
    }),
  );
  return [created, ...updates];
}

async function checkpointOf(store: ReadStore): Promise<number> {
  return store.writer(await store.activeGeneration()).checkpoint(READ_MODELS_CHECKPOINT);
}

async function allProducts(store: ReadStore, ids: string[]) {
  const found = await store.writer(await store.activeGeneration()).getMany('products', ids);
  return ids.map((id) => found.get(id));
}

it('loses nothing and doubles nothing when killed in the middle and restarted', async () => {
  const eventStore = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const ids = Array.from({ length: PRODUCTS }, () => newId());
  // Each product's events one at a time, products interleaved: 10,000 separate appends.
  await Promise.all(
    ids.map(async (id) => {
      for (const [i, event] of eventsOf(id).entries())
        await eventStore.append(`product-${id}`, [event], { expectedRevision: i - 1 < 0 ? 'no_stream' : i - 1 });
    }),
  );
  const all: RecordedEvent[] = [];
  for (
    let page = await eventStore.readAll({ after: 0, limit: 5000 });
    page.length > 0;
    page = await eventStore.readAll({ after: all.at(-1)!.position, limit: 5000 })
  ) {
    all.push(...page);
  }
  expect(all).toHaveLength(PRODUCTS * (1 + UPDATES));
  const head = all.at(-1)!.position;
  // Replayed below as the services read them: upcast to today's versions (the store holds version 1).
  const asRead = await versionedEventStore(eventStore).readAll({ after: 0, limit: all.length });
  await eventStore.close();

  const observer = openSqliteReadStore(join(dir, 'read.db'));
  let kills = 0;
  try {
    // Kill it once it has made an eighth of the way, or more, and before it is done; again, until
    // it is done. Steps of a fixed share keep the rounds few however slow the machine is.
    for (let round = 0; round < 50; round++) {
      const before = await checkpointOf(observer);
      if (before >= head) break;
      const projector = await spawnService({ DATA_DIR: dir, LOG_LEVEL: 'warn' }, ENTRY.projector);
      const deadline = Date.now() + 30_000;
      const step = Math.min(head, before + Math.ceil(head / 8));
      while ((await checkpointOf(observer)) < step && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      await projector.kill();
      if ((await checkpointOf(observer)) < head) kills++;
    }
    console.info(`projector killed part-way ${kills} times`);
    expect(kills, 'the projector was killed part-way at least once').toBeGreaterThanOrEqual(1);
    expect(await checkpointOf(observer)).toBe(head);

    const clean = openSqliteReadStore(join(dir, 'clean.db'));
    for (let i = 0; i < asRead.length; i += 500) await applyBatch(clean.writer(1), asRead.slice(i, i + 500));
    const [projected, replayed] = [await allProducts(observer, ids), await allProducts(clean, ids)];
    expect(projected.filter((p) => p === undefined)).toEqual([]);
    expect(projected.every((p) => p!.version === UPDATES)).toBe(true);
    expect(projected).toEqual(replayed);
    expect((await observer.list('products', { limit: 1, offset: 0 })).total).toBe(PRODUCTS);
    await clean.close();
  } finally {
    await observer.close();
  }
}, 180_000);
