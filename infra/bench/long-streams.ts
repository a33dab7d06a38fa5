// PATCH /products/{id} on a product with a long history against the same PATCH on products that
// have one event each: what loading from a snapshot (packages/stores/src/event-store/load-state.ts) buys. The same
// number of requests on each side, one connection (two PATCHes to one product at once would
// conflict), synchronous=NORMAL so that an fsync per request does not hide the cost of the read.
// Then reads of the long product as of the middle of its stream (issue 48's as-of read).
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { grantAdmin, startService } from '../test/process.ts';

export interface PatchResult {
  /** Events in each patched product's stream before its PATCH. */
  streamLength: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

export interface LongStreamResults {
  requests: number;
  short: PatchResult;
  long: PatchResult;
  /** GET /products/{id}?at= the middle of the long stream, one at a time: from the snapshot before it (issue 48). */
  asOf: PatchResult;
}

const details = (name: string) => ({ name, description: 'A product for the benchmark', price: { amount: 1999, currency: 'EUR' } });

async function createProduct(admin: JsonClient, name: string): Promise<string> {
  const reply = await admin.request('POST', '/products', details(name));
  if (reply.status !== 201) throw new Error(`creating a product answered ${reply.status}: ${reply.text}`);
  return reply.body.productId;
}

/**
 * `amount` PATCHes, one at a time (autocannon reports whole seconds for a fixed number of
 * requests, too coarse here), the n-th to `productIdOf(n)`; every one must be a 200.
 */
async function patches(url: string, cookie: string, amount: number, productIdOf: (n: number) => string): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < amount; n++) {
    const started = performance.now();
    const response = await fetch(`${url}/products/${productIdOf(n)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: `Renamed ${n}` }),
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`PATCH answered ${response.status}`);
  }
  return latencies;
}

/** The global position of one event of a product's stream, read from the store's file. */
async function positionOfRevision(dataDir: string, productId: string, revision: number): Promise<number> {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return Number(
      (
        db.prepare('SELECT position FROM events WHERE stream_id = ? AND revision = ?').get(`product-${productId}`, revision) as {
          position: number;
        }
      ).position,
    );
  } finally {
    db.close();
  }
}

function summary(latencies: number[], streamLength: number): PatchResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const total = latencies.reduce((sum, ms) => sum + ms, 0);
  return {
    streamLength,
    requestsPerSecond: (latencies.length * 1000) / total,
    p50: sorted[Math.floor(sorted.length * 0.5)]!,
    p99: sorted[Math.floor(sorted.length * 0.99)]!,
  };
}

export async function benchLongStreams(dataDir: string, longLength = 10_000, requests = 3_000): Promise<LongStreamResults> {
  const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: 'NORMAL' });
  try {
    const admin = jsonClient(service.url);
    const { email, password } = await signUp(admin);
    await grantAdmin({ DATA_DIR: dataDir }, email);
    await signInWithPassword(admin, email, password);
    const cookie = admin.cookieHeader();

    const fresh: string[] = [];
    for (let i = 0; i < requests; i++) fresh.push(await createProduct(admin, `Fresh ${i}`));
    const long = await createProduct(admin, 'Long history');
    await patches(service.url, cookie, longLength - 1, () => long);

    // Alternated, short first, twice: neither side gets the warmer half of the run alone.
    const half = requests / 2;
    const samples = { short: [] as number[], long: [] as number[] };
    for (const round of [0, 1]) {
      samples.short.push(...(await patches(service.url, cookie, half, (n) => fresh[round * half + n]!)));
      samples.long.push(...(await patches(service.url, cookie, half, () => long)));
    }
    // As of the middle of the long stream: from the snapshot before it.
    const middle = (await (await fetch(`${service.url}/products/${long}`)).json()) as { version: number };
    const at = await positionOfRevision(dataDir, long, Math.floor(middle.version / 2));
    const reads: number[] = [];
    for (let n = 0; n < Math.min(requests, 100); n++) {
      const started = performance.now();
      const response = await fetch(`${service.url}/products/${long}?at=${at}`);
      await response.arrayBuffer();
      reads.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`GET ?at= answered ${response.status}`);
    }
    return { requests, short: summary(samples.short, 1), long: summary(samples.long, longLength), asOf: summary(reads, longLength) };
  } finally {
    await service.stop();
  }
}
