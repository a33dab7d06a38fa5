// A rebuild replays into a fresh generation while queries go on being served, shows progress,
// swaps the new generation in, and loses no write made while it ran.
import { EventEmitter, once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rebuild, type RebuildProgress } from '@eventide/projector/src/rebuild.ts';
import { READ_MODELS_CHECKPOINT, type ReadStore } from '@eventide/stores/read-store/port.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { createLogger } from '@eventide/kernel/log.ts';

const log = createLogger({ level: 'silent' });

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

const product = (i: number) => ({ name: `Rebuild ${i}`, description: 'kettle', price: { amount: i, currency: 'EUR' } });

it('swaps in a rebuilt generation while serving queries and taking writes', async () => {
  let last = 0;
  for (let i = 0; i < 1500; i += 50) {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, j) => app.write('POST', '/products', product(i + j))));
    last = Math.max(last, ...replies.map((r) => r.position));
  }
  const before = await app.request('GET', '/products?page=1&limit=100', undefined, { 'Wait-For-Position': String(last) });
  const generation = await app.readStore.activeGeneration();

  let rebuilding = true;
  // Readers read a round per batch the rebuild reports, not as fast as they can: how many reads a
  // rebuild meets then follows its work, not the engine's speed (a slower one met the read limit).
  const paced = new EventEmitter();
  const statuses: number[] = [];
  const answered = new Set<string>();
  const readPositions: number[] = [];
  const readers = (async () => {
    while (rebuilding) {
      for (const path of ['/api/products?limit=5', '/search?q=kettle', `/products/${before.body.items[0].productId}`]) {
        const reply = await app.request('GET', path);
        // A search limit met (10 a second) is the reader's own pace, not the rebuild: not counted.
        if (reply.status === 429 && reply.body.type === '/problems/rate-limited') continue;
        statuses.push(reply.status);
        answered.add(path);
        readPositions.push(Number(reply.headers.get('read-position')));
      }
      if (rebuilding) await once(paced, 'step');
    }
  })();
  const duringWrites: number[] = [];
  const writers = (async () => {
    for (let i = 0; rebuilding && i < 200; i++) duringWrites.push((await app.write('POST', '/products', product(10_000 + i))).position);
  })();
  const progress: RebuildProgress[] = [];
  const done = await rebuild({
    eventStore: app.eventStore,
    readStore: app.readStore,
    parked: app.parked,
    log,
    onProgress: (p) => {
      progress.push(p);
      paced.emit('step');
    },
  });
  rebuilding = false;
  paced.emit('step');
  await Promise.all([readers, writers]);

  expect(done.generation).not.toBe(generation);
  expect(await app.readStore.activeGeneration()).toBe(done.generation);
  expect(answered.size).toBe(3);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  // What a read was told it includes, no later read takes back, across the swap too.
  expect(readPositions.filter((p, i) => i > 0 && p < readPositions[i - 1]!)).toEqual([]);
  expect(progress.length).toBeGreaterThan(1);
  for (let i = 1; i < progress.length; i++) expect(progress[i]!.position).toBeGreaterThan(progress[i - 1]!.position);
  expect(done.position).toBeGreaterThanOrEqual(last);

  // Writes made during and after the rebuild all reach the new generation.
  const after = await app.write('POST', '/products', product(99_999));
  const lastWrite = Math.max(after.position, ...duringWrites);
  const all = await app.request('GET', '/products?page=1&limit=1', undefined, { 'Wait-For-Position': String(lastWrite) });
  expect(all.status).toBe(200);
  expect(all.body.total).toBe(1500 + duringWrites.length + 1);
  const same = await app.request('GET', '/products?page=2&limit=100');
  expect(same.body.items.length).toBe(100);
  expect(await app.request('GET', `/products/${after.body.productId}`)).toMatchObject({ status: 200, body: after.body });
});

it('takes up what the served generation got after the replay ended, before it swaps', async () => {
  // A write lands, and the live projector puts it in the served generation, between the end of
  // the rebuild's replay and its promotion.
  let late: { position: number; body: { productId: string } } | undefined;
  const readStore = new Proxy(app.readStore, {
    get(target, key, receiver) {
      if (key !== 'promote') return Reflect.get(target, key, receiver);
      return async (generation: number) => {
        if (!late) {
          late = await app.write('POST', '/products', product(60_000));
          const seen = await app.request('GET', `/products/${late.body.productId}`, undefined, {
            'Wait-For-Position': String(late.position),
          });
          expect(seen.status).toBe(200);
        }
        return target.promote(generation);
      };
    },
  }) as ReadStore;
  const done = await rebuild({ eventStore: app.eventStore, readStore, parked: app.parked, log });
  expect(late).toBeDefined();
  expect(await app.readStore.activeGeneration()).toBe(done.generation);
  expect(done.position).toBeGreaterThanOrEqual(late!.position);
  expect(await app.readStore.servedCheckpoint(READ_MODELS_CHECKPOINT)).toBeGreaterThanOrEqual(late!.position);
  expect((await app.request('GET', `/products/${late!.body.productId}`)).status).toBe(200);
});

it('stops with the reason, and swaps nothing, when the served read models are past the end of the event store', async () => {
  const other = await startFullApp();
  try {
    const served = await other.readStore.activeGeneration();
    const head = await other.eventStore.head();
    // Read models made from some other event store: their checkpoint is beyond this one's end.
    await other.readStore.writer(served).write([], { name: READ_MODELS_CHECKPOINT, position: head + 1000 });
    await expect(rebuild({ eventStore: other.eventStore, readStore: other.readStore, parked: other.parked, log })).rejects.toThrow(
      `the served read models say they are at position ${head + 1000}, past the end of the event store (${head})`,
    );
    expect(await other.readStore.activeGeneration()).toBe(served);
  } finally {
    await other.close();
  }
});
