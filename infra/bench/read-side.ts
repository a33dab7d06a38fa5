// Read side on the embedded adapters, over N products (100,000 at BENCH_SCALE=1): cursor and
// offset page latency by depth against the first page; search against lookup by id; projection
// lag (append committed → visible in a read), idle and under a steady write load, against the
// append's own commit latency.
import { join } from 'node:path';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { openSqliteReadModels } from '@eventide/stores/read-models/open.ts';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import { startProjector } from '@eventide/projector/src/projector.ts';
import { rebuild } from '@eventide/projector/src/rebuild.ts';
import { p } from './percentile.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';

const WORDS = [
  'kettle',
  'teapot',
  'mug',
  'blender',
  'toaster',
  'grinder',
  'steel',
  'ceramic',
  'glass',
  'electric',
  'compact',
  'deluxe',
  'travel',
  'classic',
  'smart',
];
const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };

function productEvent(i: number): { streamId: string; event: NewEvent } {
  const productId = newId();
  const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;
  return {
    streamId: `product-${productId}`,
    event: {
      id: newId(),
      type: 'product:created',
      data: {
        productId,
        name: `${pick(1)} ${pick(2)} ${i}`,
        description: `A ${pick(3)} ${pick(4)} for every kitchen`,
        price: { amount: i, currency: 'EUR' },
        sku: null,
        category: null,
      },
      metadata,
    },
  };
}

async function timeEach(n: number, body: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await body(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function seed(store: EventStore, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < count) {
        const { streamId, event } = productEvent(next++);
        await store.append(streamId, [event], { expectedRevision: 'no_stream' });
      }
    }),
  );
}

export interface PagingRow {
  depth: number;
  cursorP50: number;
  offsetP50: number;
}

export interface ReadSideResults {
  products: number;
  firstPageP50: number;
  paging: PagingRow[];
  searchP50: number;
  lookupP50: number;
  lag: Array<{ load: string; p50: number; p99: number; appendP50: number }>;
}

async function pagingLatency(readStore: ReadStore, products: number): Promise<{ first: number; rows: PagingRow[] }> {
  const seqs = (await readStore.list('products', { limit: products, offset: 0 })).items.map((d) => d.seq);
  const page = 20;
  const reps = 100;
  const first = p(await timeEach(reps, () => readStore.list('products', { limit: page + 1, beforeSeq: null })), 0.5);
  const depths = [...new Set([1_000, 10_000, 100_000].map((d) => Math.min(d, products - page)))];
  const rows: PagingRow[] = [];
  for (const depth of depths) {
    const cursorP50 = p(await timeEach(reps, () => readStore.list('products', { limit: page + 1, beforeSeq: seqs[depth - 1]! })), 0.5);
    const offsetP50 = p(await timeEach(Math.max(10, reps / 5), () => readStore.list('products', { limit: page, offset: depth })), 0.5);
    rows.push({ depth, cursorP50, offsetP50 });
  }
  return { first, rows };
}

async function projectionLag(eventStore: EventStore, readStore: ReadStore, samples: number, steadyRate: number) {
  const projector = startProjector({
    eventStore,
    readStore,
    parked: openSqliteParkedEvents(':memory:'),
    log: createLogger({ level: 'silent' }),
  });
  // The lag of a projector that follows, not of one starting: its first announcement comes once
  // it has opened its generation and caught up (it starts at the store's head), and the first
  // sample taken before it measured that start (60 ms at 2,000 products) instead.
  await new Promise<void>((resolve) => {
    const unsubscribe = projector.onProgress(() => {
      unsubscribe();
      resolve();
    });
  });
  const lags: number[] = [];
  const appends: number[] = [];
  let loading = steadyRate > 0;
  // A steady background load: `steadyRate` appends per second in ticks of 10 ms.
  const load = (async () => {
    let i = 0;
    while (loading) {
      const tick = performance.now();
      const burst = Math.max(1, Math.round(steadyRate / 100));
      await Promise.all(
        Array.from({ length: burst }, () => {
          const { streamId, event } = productEvent(1_000_000 + i++);
          return eventStore.append(streamId, [event], { expectedRevision: 'no_stream' });
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10 - (performance.now() - tick))));
    }
  })();
  for (let i = 0; i < samples; i++) {
    const { streamId, event } = productEvent(2_000_000 + i);
    const started = performance.now();
    const appended = await eventStore.append(streamId, [event], { expectedRevision: 'no_stream' });
    const committed = performance.now();
    appends.push(committed - started);
    const id = streamId.slice('product-'.length);
    // Visible means a read returns it; the projector's progress says when to look.
    await new Promise<void>((resolve) => {
      const check = async () => {
        if (projector.position() >= appended.position && (await readStore.get('products', id))) {
          unsubscribe();
          resolve();
        }
      };
      const unsubscribe = projector.onProgress(() => void check());
      void check();
    });
    lags.push(performance.now() - committed);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  loading = false;
  await load;
  await projector.stop();
  return { p50: p(lags, 0.5), p99: p(lags, 0.99), appendP50: p(appends, 0.5) };
}

export async function benchReadSide(dir: string, scale: number): Promise<ReadSideResults> {
  const products = Math.max(2_000, Math.round(100_000 * scale));
  const eventStore = openSqliteEventStore({ path: join(dir, 'read-events.db'), synchronous: 'NORMAL' });
  const { store: readStore, search } = openSqliteReadModels(join(dir, 'read-models.db'));
  try {
    await seed(eventStore, products);
    await rebuild({ eventStore, readStore, parked: openSqliteParkedEvents(':memory:'), log: createLogger({ level: 'silent' }) });
    const paging = await pagingLatency(readStore, products);
    const searchP50 = p(await timeEach(200, (i) => search.search(`${WORDS[i % WORDS.length]} ${WORDS[(i + 3) % WORDS.length]}`, 20)), 0.5);
    const ids = (await readStore.list('products', { limit: 200, offset: 0 })).items.map((d) => d.id);
    const lookupP50 = p(await timeEach(200, (i) => readStore.get('products', ids[i % ids.length]!)), 0.5);
    const idle = await projectionLag(eventStore, readStore, 300, 0);
    const loaded = await projectionLag(eventStore, readStore, 300, 2_000);
    return {
      products,
      firstPageP50: paging.first,
      paging: paging.rows,
      searchP50,
      lookupP50,
      lag: [
        { load: 'idle', ...idle },
        { load: 'steady 2,000 appends/s', ...loaded },
      ],
    };
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}
