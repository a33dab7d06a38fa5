// The stores on PostgreSQL against what a team would otherwise write or pick, on one throwaway
// server started for the run with fsync on (every commit durable, as in production):
// - appends, one at a time and 32 at once, each of one event to a new stream, against the floor of
//   raw INSERTs of the same rows into the same table (one durable commit each, as many connections
//   as appenders) and against Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql,
//   installed on first use in peers/emmett-postgresql);
// - reads of the read models (a product by id, the first page with its total, a search) against
//   raw SQL doing the same lookups on the same tables.
// Each side is measured in turn for ROUNDS rounds, each on a database of its own, and the median kept.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openPostgresEventStore } from '@eventide/stores/event-store/postgres.ts';
import { openPool } from '@eventide/stores/postgres/pool.ts';
import { openPostgresReadModels } from '@eventide/stores/read-models/open.ts';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';
import type { PeerRate } from './emmett.ts';
import { p } from './percentile.ts';

const PEER = fileURLToPath(new URL('./peers/emmett-postgresql/', import.meta.url));
export const PEER_VERSION = '0.42.0';
const ROUNDS = 3;
export const CONCURRENT = 32;

const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };
const payload = { userId: 'bench', name: 'Bench User', email: 'bench@example.com' };
const event = (): NewEvent => ({ id: newId(), type: 'user:created', data: payload, metadata });

export interface AppendRow {
  name: string;
  concurrency: number;
  ours: number;
  floor: number;
  peer: PeerRate;
}

export interface ReadRow {
  name: string;
  /** p50, ms. */
  ours: number;
  floor: number;
}

export interface PostgresResults {
  version: string;
  appends: number;
  rows: AppendRow[];
  products: number;
  reads: ReadRow[];
}

const installed = () => existsSync(join(PEER, 'node_modules/@event-driven-io/emmett-postgresql'));

function installPeer(): string | undefined {
  if (installed()) return undefined;
  console.log('Emmett PostgreSQL peer: installing infra/bench/peers/emmett-postgresql...');
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEER, encoding: 'utf8', timeout: 10 * 60_000 });
  if (npm.status === 0) return undefined;
  return `npm ci in infra/bench/peers/emmett-postgresql failed: ${(npm.stderr || npm.error?.message || '').trim().split('\n').slice(-3).join(' ')}`;
}

const median = (values: number[]) => p(values, 0.5);

/** Events per second of `events` appends by `concurrency` appenders, each running `append` in turn. */
async function rateOf(events: number, concurrency: number, append: () => Promise<unknown>): Promise<number> {
  const each = Math.ceil(events / concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < each; i++) await append();
    }),
  );
  return (each * concurrency) / ((performance.now() - started) / 1000);
}

async function ours(url: string, events: number, concurrency: number): Promise<number> {
  const store = await openPostgresEventStore({ url });
  try {
    const append = () => store.append(`user-${newId()}`, [event()], { expectedRevision: 'no_stream' });
    // Connections opened before the clock starts, as for the others.
    await Promise.all(Array.from({ length: concurrency }, append));
    return await rateOf(events, concurrency, append);
  } finally {
    await store.close();
  }
}

/** The floor: the same rows INSERTed into the event store's own table, one statement and one commit each. */
async function floor(url: string, events: number, concurrency: number): Promise<number> {
  await (await openPostgresEventStore({ url })).close();
  // The stores' own pool: an idle connection the server ends is not an error that ends this process.
  const pool = openPool(url, concurrency);
  try {
    const insert = () =>
      pool.query('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES ($1, $2, 0, $3, $4, $5, $6)', [
        newId(),
        `user-${newId()}`,
        'user:created',
        JSON.stringify(payload),
        JSON.stringify(metadata),
        new Date().toISOString(),
      ]);
    await Promise.all(Array.from({ length: concurrency }, insert));
    return await rateOf(events, concurrency, insert);
  } finally {
    await pool.end();
  }
}

function peer(url: string, events: number, concurrency: number): PeerRate {
  const output = execFileSync(process.execPath, [join(PEER, 'appends.ts'), url, String(events), String(concurrency)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const result = output.split('\n').find((line) => line.startsWith('RESULT '));
  if (!result) throw new Error(`the Emmett PostgreSQL peer printed no result: ${output.slice(-500)}`);
  return JSON.parse(result.slice('RESULT '.length));
}

/** Appends in turn: ours, the floor and the peer, each round in a rotated order, each run on a fresh database. */
async function appendRow(
  server: TestPostgres,
  name: string,
  events: number,
  concurrency: number,
  noPeer: string | undefined,
): Promise<AppendRow> {
  const rates = { ours: [] as number[], floor: [] as number[], peer: [] as number[] };
  const failures: string[] = noPeer ? [noPeer] : [];
  const sides = [
    async () => rates.ours.push(await ours(await server.database(), events, concurrency)),
    async () => rates.floor.push(await floor(await server.database(), events, concurrency)),
    async () => {
      if (noPeer) return;
      const result = peer(await server.database(), events, concurrency);
      failures.push(...result.failures);
      if (result.rate !== undefined) rates.peer.push(result.rate);
    },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) await sides[(round + i) % sides.length]!();
  }
  return {
    name,
    concurrency,
    ours: median(rates.ours),
    floor: median(rates.floor),
    peer: { ...(rates.peer.length > 0 ? { rate: median(rates.peer) } : {}), failures },
  };
}

const WORDS = ['kettle', 'teapot', 'mug', 'blender', 'toaster', 'grinder', 'steel', 'ceramic', 'glass', 'electric', 'compact', 'travel'];
const pick = (i: number, k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;

/** p50 in ms of `n` runs of each of two reads, in turn. */
async function inTurn(n: number, ours: (i: number) => Promise<unknown>, floor: (i: number) => Promise<unknown>) {
  const samples = { ours: [] as number[], floor: [] as number[] };
  for (let i = 0; i < n; i++) {
    for (const [side, read] of i % 2 === 0
      ? ([
          ['ours', ours],
          ['floor', floor],
        ] as const)
      : ([
          ['floor', floor],
          ['ours', ours],
        ] as const)) {
      const started = performance.now();
      await read(i);
      samples[side].push(performance.now() - started);
    }
  }
  return { ours: median(samples.ours), floor: median(samples.floor) };
}

/** The read models filled with `count` products, then reads through them against raw SQL on the same tables. */
async function reads(url: string, count: number, samples: number): Promise<ReadRow[]> {
  const { store, search } = await openPostgresReadModels(url);
  const pool = openPool(url, 2);
  try {
    const generation = await store.activeGeneration();
    const writer = store.writer(generation);
    const ids: string[] = [];
    for (let start = 0; start < count; start += 1000) {
      const docs = Array.from({ length: Math.min(1000, count - start) }, (_, k) => {
        const i = start + k;
        ids.push(`p${i}`);
        return productDoc(`p${i}`, `${pick(i, 1)} ${pick(i, 2)} ${i}`, `A ${pick(i, 3)} ${pick(i, 4)} for every kitchen`, { seq: i + 1 });
      });
      await writer.write(
        docs.map((doc) => ({ collection: 'products' as const, doc, expectedVersion: null })),
        { name: 'bench', position: start + docs.length },
      );
    }
    const products = `read_products_g${generation}`;
    const row = 'id, version, seq, deleted, body';
    const raw = (text: string, values: unknown[]) => pool.query(text, values);
    const id = (i: number) => ids[(i * 7919) % ids.length]!;
    const byId = await inTurn(
      samples,
      (i) => store.get('products', id(i)),
      (i) => raw(`SELECT ${row} FROM ${products} WHERE id = $1`, [id(i)]),
    );
    const firstPage = await inTurn(
      samples,
      () => store.list('products', { limit: 20, offset: 0 }),
      async () => {
        await raw(`SELECT ${row} FROM ${products} WHERE NOT deleted ORDER BY seq DESC LIMIT 20`, []);
        await raw(`SELECT n FROM read_counts_g${generation} WHERE collection = 'products' AND fields = '' AND value = ''`, []);
      },
    );
    const searched = await inTurn(
      samples,
      () => search.search('steel kett', 20),
      // The candidates alone, with the query written by hand: no vocabulary asked, nothing ranked.
      () =>
        raw(`SELECT ${row} FROM ${products} WHERE words @@ $1::tsquery AND NOT deleted ORDER BY seq DESC LIMIT 50`, ["'steel' & 'kett':*"]),
    );
    return [
      { name: 'a product by id', ...byId },
      { name: 'the first page of products, with the total', ...firstPage },
      { name: 'search `steel kett` (a word and a prefix)', ...searched },
    ];
  } finally {
    await pool.end();
    await store.close();
  }
}

/** `install`: whether to install the peer when it is not there. */
export async function benchPostgres(scale: number, install = true): Promise<PostgresResults | { skipped: string }> {
  const unavailable = postgresUnavailable();
  if (unavailable) return { skipped: unavailable };
  // Without the peer (a quick run does not install it, an install can fail), the rest is measured all the same.
  const noPeer = !install && !installed() ? 'a quick run does not install the peer (`npm run bench` does)' : installPeer();
  const server = await startPostgres({ durable: true });
  try {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    await client.end();
    const appends = Math.max(200, Math.round(4000 * scale));
    const single = await appendRow(server, 'one event at a time, to new streams', Math.round(appends / 4), 1, noPeer);
    const concurrent = await appendRow(server, `${CONCURRENT} appenders at once, each to new streams`, appends, CONCURRENT, noPeer);
    const products = Math.max(2000, Math.round(50_000 * scale));
    return {
      version,
      appends,
      rows: [single, concurrent],
      products,
      reads: await reads(await server.database(), products, Math.max(50, Math.round(500 * scale))),
    };
  } finally {
    await server.remove();
  }
}
