// How the routes hold up as the data grows: one store seeded with `npm run seed` to each size in
// turn (appending, a copy kept at each size), then the stores of every size served at once and
// every read route loaded on each, ours and then the raw floor running the same SELECTs on the
// same read.db (servers/raw-reads.ts), plus POST /users, in rounds: each figure is the median of
// its rounds, so that ours ÷ the floor and the largest ÷ the smallest both come from figures taken
// minutes apart at most. Search is measured with the same words at every size, taken from the
// seed's own word distribution: one no product holds, the rarest, one in about 1% of products
// (about 10,000 at 1M events) and one in about 90%. At the largest size every kind of query is
// also timed alone (ours and the floor in turn) and under load (16 connections).
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { freePort, grantAdmin, startService, type RunningService } from '../test/process.ts';
import { until } from '@eventide/testing/wait.ts';
import { FOLLOWERS } from '@eventide/kernel/events/followers.ts';
import { POSITION_OF } from '@eventide/runtime/followers/health.ts';
import { spawnServer } from './servers/spawn.ts';
import { p } from './percentile.ts';
import { SEARCH_MAX, SEARCH_MAX_WORDS } from '@eventide/kernel/search/limits.ts';
import { sample, type Sample } from './growth-sample.ts';
import { benchThreads, type ThreadScaling } from './threads.ts';
import { loadPaths } from './wrk.ts';
import { signUps as loadSignUps } from './http.ts';

/** One query's latency with nothing else in flight: what it costs, without the queueing of a loaded run. */
export interface SearchLatency {
  q: string;
  note: string;
  /** Whether the floor's FTS5 query is the same question as ours (a word alone, found as typed): what the target on search ÷ raw FTS5 compares. */
  sameQuery: boolean;
  ours: Latency;
  floor: Latency;
}
interface Latency {
  p50: number;
  p99: number;
}

export type { Measured } from './measured.ts';
import type { Measured } from './measured.ts';

/**
 * Every route at every size, with the stores of all sizes served at once and loaded in turn
 * (smallest to largest, `rounds` times). Measured minutes apart instead, one size's figures moved
 * by a quarter with the load of the machine alone (GET /api/products at 1,000 events: 1,656 and
 * 2,092 requests/s in two runs).
 */
export interface SizesCompared {
  sizes: number[];
  rounds: number;
  /**
   * Per route (in the steps' order), per size: the median over the rounds; for the read routes the
   * raw floor's too, loaded right after ours on the same store, so that a route's growth can be
   * told from the growth of its answer (a word that matches more products at a larger size).
   */
  routes: Array<{ route: string; notes: string[]; perSize: Measured[]; floorPerSize?: Measured[] }>;
}

export interface GrowthStep {
  events: number;
  /** How long `npm run seed` took to add this size's events to the one before, read models included. */
  seeded: { events: number; seconds: number };
  products: number;
}

export interface GrowthResults {
  steps: GrowthStep[];
  compared: SizesCompared;
  /** At the largest size: every kind of query alone, ours and the floor in turn. */
  searchAlone: SearchLatency[];
  /** At the largest size: every kind of query under 16 connections, ours, and what it answered (how many products, whether complete). */
  searchLoaded: Array<{ q: string; note: string; ours: Measured; answered: { items: number; complete: boolean } }>;
  /** How long each query was loaded under 16 connections. */
  searchLoadedSeconds: number;
  /** At the largest size: the reads on 1, 2, … threads (threads.ts). */
  threads: ThreadScaling;
}

const SEED_CLI = fileURLToPath(new URL('../src/seed/seed-cli.ts', import.meta.url));

/** Appends about `events` to the store and builds their read models: returns how long that took, in seconds. */
async function seedTo(dataDir: string, events: number, step: number): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [SEED_CLI, '--events', String(events), '--seed', String(step + 1), ...(step > 0 ? ['--append'] : [])],
    {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run seed exited with ${code}`);
  return (performance.now() - started) / 1000;
}

/** The position of the store's last event: where the service has caught up once it reports it. */
function eventStoreHead(dataDir: string): number {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT max(position) AS head FROM events').get() as { head: number }).head);
  } finally {
    db.close();
  }
}

/**
 * The same request to ours and to the floor in turn, one at a time, for `seconds`: each one's time
 * from sending to the whole answer. Alternating, both meet the same moments of this machine; timed
 * one after the other for seconds each, the ratio moved by a fifth between runs with its load alone.
 */
async function alternately(urls: { ours: string; floor: string }, seconds: number): Promise<{ ours: Latency; floor: Latency }> {
  const times = { ours: [] as number[], floor: [] as number[] };
  const timed = async (url: string) => {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return performance.now() - started;
  };
  const end = performance.now() + 2 * seconds * 1000;
  while (performance.now() < end) {
    times.ours.push(await timed(urls.ours));
    times.floor.push(await timed(urls.floor));
  }
  const latency = (of: number[]) => ({ p50: p(of, 0.5), p99: p(of, 0.99) });
  return { ours: latency(times.ours), floor: latency(times.floor) };
}

/** Each word of five letters or more with its last two letters swapped: a typo that search forgives. */
const typoOfEach = (query: string) => query.replace(/\b(\w{3,})(\w)(\w)\b/g, '$1$3$2');

/** The routes measured at every size, with the paths each is loaded with: the same words at every size, ids of that store. */
function routesOf({ ids, words }: Sample): Array<{ route: string; note: string; paths: string[]; admin?: true }> {
  return [
    { route: 'GET /api/products', note: 'newest 20', paths: ['/api/products'] },
    { route: 'GET /products?page=1', note: 'newest 20 and the total', paths: ['/products?page=1'] },
    { route: 'GET /api/products?sort=price', note: 'the cheapest 20 (by currency, then amount)', paths: ['/api/products?sort=price'] },
    { route: 'GET /api/products?sort=name', note: 'the first 20 by name', paths: ['/api/products?sort=name'] },
    {
      route: 'GET /api/products (a price range)',
      note: 'the newest 20 from 10 to 20 EUR (about 1% of the EUR products)',
      paths: ['/api/products?currency=EUR&minPrice=1000&maxPrice=2000'],
    },
    {
      route: 'GET /api/products?sort=price (a price range)',
      note: 'the cheapest 20 from 10 to 20 EUR',
      paths: ['/api/products?sort=price&currency=EUR&minPrice=1000&maxPrice=2000'],
    },
    { route: 'GET /products/{id}', note: `${ids.length} ids at random`, paths: ids.map((id) => `/products/${id}`) },
    {
      route: 'GET /products/{id}/history',
      note: `the newest page of ${ids.length} products' histories at random, as an admin`,
      paths: ids.map((id) => `/products/${id}/history`),
      admin: true,
    },
    ...words.map((word) => ({
      route: `GET /search?q= (${word.label})`,
      note: `\`${word.q}\`: ${word.matches.toLocaleString('en')} products`,
      paths: [`/search?q=${word.q}`],
    })),
  ];
}
const SIGN_UPS = { route: 'POST /users', note: 'sign-up without a password' };

/** Our service on a store, once it has caught up with it (see below). */
async function startCaughtUp(dataDir: string): Promise<RunningService> {
  // Where the followers are is the operator's to read, on the metrics port.
  const port = await freePort();
  const metricsPort = await freePort();
  const service = await startService({
    DATA_DIR: dataDir,
    PORT: String(port),
    RATE_LIMIT_SEARCH_PER_SECOND: '1000000000',
    METRICS_PORT: String(metricsPort),
  });
  // A service started on a freshly seeded store first publishes every seeded event to its bus:
  // measured meanwhile, each route (and the floor, on the same two cores) lost up to half its
  // throughput to that catch-up. The table is of the steady state, so it waits for it to end, for
  // every follower. The deadlines' appends as it goes (a deadline for each order still placed:
  // 9,400 events in its first 30 s on a store of 300,000), and the others follow those too, so
  // the head is read again each time: once all are at it, nothing more is coming.
  await until(
    async () => {
      const head = eventStoreHead(dataDir);
      const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()) as Record<string, unknown>;
      return FOLLOWERS.every((follower) => Number(health[POSITION_OF[follower]]) >= head);
    },
    `every follower (${FOLLOWERS.join(', ')}) to reach the end of the seeded store's log`,
    15 * 60_000,
  );
  return service;
}

/** The session cookie of an admin made on this store, as an operator makes one (npm run admin -- grant). */
async function adminCookie(url: string, dataDir: string): Promise<string> {
  const who = { name: 'Bench Admin', email: `bench-admin-${process.pid}@example.test`, password: 'a long bench passphrase' };
  const post = (path: string, body: unknown) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const signedUp = await post('/users', who);
  if (signedUp.status !== 201) throw new Error(`the bench admin's sign-up answered ${signedUp.status}`);
  await grantAdmin({ DATA_DIR: dataDir }, who.email);
  const signedIn = await post('/auth/sign-in', { email: who.email, password: who.password });
  if (signedIn.status !== 200) throw new Error(`the bench admin's sign-in answered ${signedIn.status}`);
  return signedIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function signUps(url: string, seconds: number) {
  const result = await loadSignUps(url, seconds, 16);
  if (result.non2xx > 0) throw new Error(`POST /users: ${result.non2xx} answers were not 201`);
  return { requestsPerSecond: result.requestsPerSecond, p99: result.p99 };
}

/** Each figure's median over the rounds. */
function medianOf(runs: Measured[]): Measured {
  const median = (values: number[]) => p(values, 0.5);
  return { requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)), p99: median(runs.map((run) => run.p99)) };
}

/**
 * The longest query accepted: SEARCH_MAX characters in SEARCH_MAX_WORDS words that no product
 * holds, each a run of the commonest name words run together, so that each is looked up, and
 * corrected, in the vocabulary.
 */
function longestQuery(commonWords: string): string {
  const letters = commonWords.replaceAll(' ', '').repeat(SEARCH_MAX);
  const letterCount = SEARCH_MAX - (SEARCH_MAX_WORDS - 1);
  const length = Math.floor(letterCount / SEARCH_MAX_WORDS);
  // The first word takes what the division leaves over, so that the query is SEARCH_MAX long.
  const lengths = [letterCount - length * (SEARCH_MAX_WORDS - 1), ...Array<number>(SEARCH_MAX_WORDS - 1).fill(length)];
  const starts = lengths.map((_, i) => lengths.slice(0, i).reduce((sum, n) => sum + n, 0));
  return lengths.map((n, i) => letters.slice(starts[i], starts[i]! + n)).join(' ');
}

/** Every kind of query the growth tables time at the largest size. */
function queriesOf({ words, commonWords, commonestWords }: Sample): Array<{ q: string; note: string; sameQuery: boolean }> {
  return [
    ...words.map((w) => ({ q: w.q, note: `${w.label}: ${w.matches.toLocaleString('en')} products`, sameQuery: true })),
    { q: commonWords, note: `the ${SEARCH_MAX_WORDS} commonest name words`, sameQuery: false },
    { q: typoOfEach(commonWords), note: 'the same, the last two letters of each swapped', sameQuery: false },
    // Common words that never meet: the seed gives a name one material, and the two commonest
    // name words are both materials. The engine's intersection reads every list to its end.
    {
      q: [...commonestWords.slice(0, 2), ...commonWords.split(' ').slice(0, 2)].join(' '),
      note: 'the 2 commonest words and the 2 commonest name words',
      sameQuery: false,
    },
    { q: commonestWords.join(' '), note: `the ${SEARCH_MAX_WORDS} commonest words`, sameQuery: false },
    { q: longestQuery(commonWords), note: `${SEARCH_MAX} characters: ${SEARCH_MAX_WORDS} long words no product holds`, sameQuery: false },
  ];
}

/**
 * Every route on the stores of every size at once, loaded in turn, `rounds` times, each read
 * route's floor after it (SizesCompared); then, on the largest, every kind of query alone and
 * under load.
 */
async function compareSizes(
  stores: Array<{ events: number; dataDir: string }>,
  seconds: number,
  rounds: number,
  phase: Phase,
): Promise<Omit<GrowthResults, 'steps'>> {
  const services: RunningService[] = [];
  const floors: Array<{ port: number; stop: () => void }> = [];
  try {
    await phase('growth: the services catch up', async () => {
      for (const { dataDir } of stores) {
        services.push(await startCaughtUp(dataDir));
        floors.push(await spawnServer('./raw-reads.ts', { DATA_DIR: dataDir }));
      }
    });
    const samples = stores.map(({ dataDir }) => sample(dataDir));
    const admins = await Promise.all(stores.map(({ dataDir }, i) => adminCookie(services[i]!.url, dataDir)));
    // Per store, its routes in the order of the tables: its own ids, the same words everywhere.
    const routes = samples.map((storeSample, i) => [
      ...routesOf(storeSample).map(({ route, note, paths, admin }) => ({
        route,
        note,
        run: (url: string) => loadPaths(url, paths, seconds, admin ? { cookie: admins[i]! } : {}),
        floored: true,
      })),
      { ...SIGN_UPS, run: (url: string) => signUps(url, seconds), floored: false },
    ]);
    const runs = routes[0]!.map(() => stores.map(() => ({ ours: [] as Measured[], floor: [] as Measured[] })));
    await phase(`growth: ${rounds} rounds of every route`, async () => {
      for (let round = 0; round < rounds; round++) {
        for (const [r, perStore] of runs.entries()) {
          for (const [i, service] of services.entries()) {
            const route = routes[i]![r]!;
            perStore[i]!.ours.push(await route.run(service.url));
            if (route.floored) perStore[i]!.floor.push(await route.run(`http://127.0.0.1:${floors[i]!.port}`));
          }
        }
      }
    });
    const largest = services.length - 1;
    const oursUrl = services[largest]!.url;
    const floorUrl = `http://127.0.0.1:${floors[largest]!.port}`;
    const searchAlone: SearchLatency[] = [];
    const searchLoaded: GrowthResults['searchLoaded'] = [];
    // A p99 is the tail of what was measured: a second's thousand requests put it at the tenth slowest, where one
    // pause of the machine moves it by half (36.7-37.0 ms and 56.6-59.5 ms for the same two queries in two runs
    // of 2026-11-29, their rates the same). Each query is loaded for as long as a route's rounds together.
    const searchLoadedSeconds = rounds * seconds;
    await phase('growth: every kind of query', async () => {
      for (const { q, note, sameQuery } of queriesOf(samples[largest]!)) {
        const path = `/search?q=${encodeURIComponent(q)}`;
        searchAlone.push({ q, note, sameQuery, ...(await alternately({ ours: oursUrl + path, floor: floorUrl + path }, seconds)) });
        const answer = (await (await fetch(oursUrl + path)).json()) as { items: unknown[]; complete: boolean };
        searchLoaded.push({
          q,
          note,
          ours: await loadPaths(oursUrl, [path], searchLoadedSeconds),
          answered: { items: answer.items.length, complete: answer.complete },
        });
      }
    });
    // Alone on the largest store: its service stops, and each thread count is started on it in turn.
    // Twice a route's load: the ratio between counts is the figure, and a second is short for a p99.
    await services[largest]!.stop();
    const threads = await phase('growth: reads on 1, 2, … threads', () =>
      benchThreads(stores[largest]!.dataDir, samples[largest]!, 2 * seconds, rounds),
    );
    return {
      threads,
      compared: {
        sizes: stores.map((s) => s.events),
        rounds,
        routes: routes[0]!.map(({ route, floored }, r) => ({
          route,
          notes: routes.map((perStore) => perStore[r]!.note),
          perSize: runs[r]!.map((size) => medianOf(size.ours)),
          ...(floored ? { floorPerSize: runs[r]!.map((size) => medianOf(size.floor)) } : {}),
        })),
      },
      searchAlone,
      searchLoaded,
      searchLoadedSeconds,
    };
  } finally {
    for (const floor of floors) floor.stop();
    for (const service of services) await service.stop();
  }
}

/** Runs one part of the section under its own name, so that the run's timings say where the time went (run.ts). */
export type Phase = <T>(name: string, work: () => Promise<T>) => Promise<T>;

export async function benchGrowth(
  dataDir: string,
  sizes: number[],
  seconds: number,
  rounds: number,
  phase: Phase = (_name, work) => work(),
): Promise<GrowthResults> {
  const steps: GrowthStep[] = [];
  // A copy of the store at each size but the last, served beside it.
  const stores: Array<{ events: number; dataDir: string }> = [];
  let seeded = 0;
  await phase('growth: npm run seed', async () => {
    for (const [step, size] of sizes.entries()) {
      const seedSeconds = await seedTo(dataDir, size - seeded, step);
      steps.push({ events: size, seeded: { events: size - seeded, seconds: seedSeconds }, products: sample(dataDir).products });
      seeded = size;
      if (step < sizes.length - 1) {
        const copy = `${dataDir}-at-${size}`;
        cpSync(dataDir, copy, { recursive: true });
        stores.push({ events: size, dataDir: copy });
      }
    }
  });
  stores.push({ events: seeded, dataDir });
  return { steps, ...(await compareSizes(stores, seconds, rounds, phase)) };
}
