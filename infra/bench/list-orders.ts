// `node infra/bench/list-orders.ts [largest]`: what a page of products costs in each order and
// range the API offers (list-keys.ts), on the embedded read store itself, at 1,000 products and at
// `largest` (default 1,000,000), and the second ÷ the first: each order pages by an index, so its
// page should cost the same at any size; a price range in another order than price reads and sorts
// the range, so it grows with the range. Prices and currencies are drawn as the seed draws them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import type { ListQuery, ReadDocument, ReadStore } from '@eventide/stores/read-store/port.ts';
import { positionOf } from '@eventide/stores/read-store/list-keys.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';
import { p } from './percentile.ts';

const largest = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = 300;
const CURRENCIES = ['EUR', 'EUR', 'EUR', 'USD', 'GBP', 'JPY'];
const WORDS = ['Awesome', 'Small', 'Rustic', 'Sleek', 'Tasty', 'Chair', 'Table', 'Lamp', 'Kettle', 'Shoes', 'Bike', 'Soap', 'Gloves'];

/** A seeded random, the same products at every size. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function fill(store: ReadStore, count: number): Promise<void> {
  const next = random(1);
  const writer = store.writer(await store.activeGeneration());
  for (let from = 0; from < count; from += 2000) {
    const docs: ReadDocument<'products'>[] = [];
    for (let i = from; i < Math.min(count, from + 2000); i++) {
      const currency = CURRENCIES[Math.floor(next() * CURRENCIES.length)]!;
      const name = `${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} ${i}`;
      docs.push(productDoc(`p${i}`, name, '', { seq: i + 1, price: { amount: 99 + Math.floor(next() * 99_900), currency } }));
    }
    await writer.write(
      docs.map((doc) => ({ collection: 'products', doc, expectedVersion: null })),
      { name: 'bench', position: from + docs.length },
    );
  }
}

const range = { keys: { currency: { equals: 'EUR' }, amount: { min: 1000, max: 2000 } } };
const QUERIES: Array<{ name: string; query: Omit<ListQuery, 'limit'> & { after: null } }> = [
  { name: 'newest 20', query: { after: null } },
  { name: 'cheapest 20', query: { order: { by: 'price', descending: false }, after: null } },
  { name: 'dearest 20', query: { order: { by: 'price', descending: true }, after: null } },
  { name: 'first 20 by name', query: { order: { by: 'name', descending: false }, after: null } },
  { name: 'cheapest 20 from 10 to 20 EUR', query: { order: { by: 'price', descending: false }, ...range, after: null } },
  { name: 'newest 20 from 10 to 20 EUR', query: { ...range, after: null } },
];

/** Each query's page: the first, and the one after a position half way down the list (a deep cursor). */
async function measure(store: ReadStore, count: number) {
  const rows: Array<{ name: string; first: number; deep: number }> = [];
  for (const { name, query } of QUERIES) {
    // Half way: walked in large pages once, then the page after it timed.
    let after = null as ReturnType<typeof positionOf> | null;
    for (let walked = 0; walked < count / 2; walked += 1000) {
      const page = await store.list('products', { ...query, limit: 1000, after });
      if (page.items.length < 1000) break;
      after = positionOf('products', query.order, page.items.at(-1)!);
    }
    const time = async (position: typeof after) => {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const started = performance.now();
        await store.list('products', { ...query, limit: 21, after: position });
        samples.push(performance.now() - started);
      }
      return p(samples, 0.5);
    };
    rows.push({ name, first: await time(null), deep: await time(after) });
  }
  return rows;
}

const sizes = [...new Set([1000, 100_000, largest])].filter((size) => size <= largest);
const results = new Map<number, Awaited<ReturnType<typeof measure>>>();
for (const count of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-list-orders-'));
  const store = openSqliteReadStore(join(dir, 'read.db'), { bulkLoad: true });
  try {
    const started = performance.now();
    await fill(store, count);
    console.error(`${count.toLocaleString('en')} products written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    results.set(count, await measure(store, count));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const ms = (value: number) => value.toFixed(3);
const sized = sizes.map((size) => size.toLocaleString('en'));
const top = sized.at(-1)!;
console.log(
  `| page of 21 (median of ${SAMPLES}, ms) | ${sized.map((size) => `first page at ${size}`).join(' | ')} | half way down at ${top} | at ${top} ÷ at ${sized[0]} |`,
);
console.log(`|---|${sizes.map(() => '---:|').join('')}---:|---:|`);
for (const [i, { name }] of QUERIES.entries()) {
  const rows = sizes.map((size) => results.get(size)![i]!);
  const last = rows.at(-1)!;
  console.log(
    `| ${name} | ${rows.map((row) => ms(row.first)).join(' | ')} | ${ms(last.deep)} | ${(last.first / rows[0]!.first).toFixed(2)} |`,
  );
}
