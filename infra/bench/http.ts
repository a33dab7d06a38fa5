// POST /users requests per second through the whole stack (validation, email claim, the new
// person's key, two durable appends) against floors loaded the same way: a Koa handler making the
// same three durable inserts (the key, then both events), group-committed as our stores do, the
// same again also projecting each new user into a read model as `npm start` does, and committed one
// by one; a bare Koa JSON handler that writes nothing (a reference, not a floor); and
// ours again with tracing on, for what it costs. The load is wrk's (wrk.ts): with autocannon, in
// this process, ours measured 0.30 of the group-committed floor and with wrk 0.46, the same
// minutes (2026-11-29), the floor alike with either: the floor runs on one thread, and ours needs
// the second core for its followers' thread, where autocannon ran. Each server is loaded once
// before it is measured, so that it is measured warm (threads.ts says why).
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startService } from '../test/process.ts';
import { spawnServer } from './servers/spawn.ts';
import { p } from './percentile.ts';
import { ThreadTimes } from './thread-times.ts';
import { wrk, type WrkResult } from './wrk.ts';

export interface HttpResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The server process's CPU a request, by kind of thread, over its measured loads (thread-times.ts); undefined off Linux. */
  cpu?: ReturnType<ThreadTimes['perRequest']>;
}

/** Numbers the loads of the run, so that no two send the same email (sign-ups.lua). */
let loads = 0;

/** Rounds of ours and the group-committed floor in turn, each figure their median: one load of each moved their ratio from 0.39 to 0.62 between runs. */
export const ROUNDS = 3;
export const CONNECTIONS = 32;

/** POST /users with a new email each time, for `seconds` on `connections` connections. */
export function signUps(url: string, seconds: number, connections = CONNECTIONS): Promise<WrkResult> {
  return wrk(url, seconds, connections, { script: { file: 'sign-ups.lua', args: [`${process.pid}-${loads++}`] } });
}

/** One load of sign-ups, with the CPU of the process `pid` meanwhile counted in `times`. */
function measuredSignUps(url: string, seconds: number, pid: number | undefined, times: ThreadTimes): Promise<WrkResult> {
  return times.measure(
    pid,
    () => signUps(url, seconds),
    (run) => run.requests,
  );
}

/** Loaded once to warm up, then measured once, with the CPU of the process `pid` meanwhile. */
async function warmThenLoad(name: string, url: string, seconds: number, pid?: number): Promise<HttpResult> {
  await signUps(url, seconds);
  const times = new ThreadTimes();
  const { requestsPerSecond, p50, p99, non2xx } = await measuredSignUps(url, seconds, pid, times);
  return { name, requestsPerSecond, p50, p99, non2xx, cpu: times.perRequest() };
}

async function loadServer(name: string, script: string, env: Record<string, string>, seconds: number) {
  const { port, pid, stop } = await spawnServer(script, env);
  try {
    return await warmThenLoad(name, `http://127.0.0.1:${port}`, seconds, pid);
  } finally {
    stop();
  }
}

/** What servers/write-side.ts prints: sign-ups a second without HTTP, and its CPU a sign-up. */
export interface WriteSideResult {
  perSecond: number;
  cpu: ReturnType<ThreadTimes['perRequest']>;
}

/** The sign-ups of POST /users made through the write side alone, in a process of its own (servers/write-side.ts). */
async function writeSideAlone(dataDir: string, seconds: number, synchronous: string): Promise<WriteSideResult> {
  const script = fileURLToPath(new URL('./servers/write-side.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--max-semi-space-size=8', '--min-semi-space-size=8', script], {
    env: { ...process.env, DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous, SECONDS: String(seconds), CONNECTIONS: String(CONNECTIONS) },
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as WriteSideResult;
}

/** Each figure's median over the rounds, every round's answers that were not 2xx, and the CPU a request over all rounds. */
function medianOf(name: string, runs: WrkResult[], times: ThreadTimes): HttpResult {
  const median = (pick: (run: WrkResult) => number) => p(runs.map(pick), 0.5);
  return {
    name,
    requestsPerSecond: median((run) => run.requestsPerSecond),
    p50: median((run) => run.p50),
    p99: median((run) => run.p99),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    cpu: times.perRequest(),
  };
}

export interface HttpResults {
  ours: HttpResult;
  /** The same durable inserts per request (a key, two events), group-committed: the fair floor. */
  grouped: HttpResult;
  /** The same, and each new user's read-model row written after the commit on a thread of its own, as `npm start` projects. */
  projecting: HttpResult;
  /** The same durable inserts per request, one transaction each. */
  single: HttpResult;
  /** No writes at all: what Koa and the HTTP stack cost alone. */
  bare: HttpResult;
  /** Ours again with every span exported: what tracing costs. */
  traced: HttpResult;
  /** The same sign-ups through the write side alone, no HTTP, in the same rounds: each figure the rounds' median. */
  writeSide: WriteSideResult;
}

export async function benchHttp(dataDir: string, seconds: number, synchronous: string): Promise<HttpResults> {
  const rawDir = (name: string) => {
    const dir = join(dataDir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const bare = await loadServer('bare Koa JSON handler (no writes)', './bare-koa.ts', {}, seconds);
  const single = await loadServer(
    'Koa + the same 3 raw durable INSERTs, a transaction each',
    './raw-inserts.ts',
    { DATA_DIR: rawDir('single'), GROUP_COMMIT: '0' },
    seconds,
  );
  const floor = await spawnServer('./raw-inserts.ts', { DATA_DIR: rawDir('grouped'), GROUP_COMMIT: '1' });
  const projectingFloor = await spawnServer('./raw-inserts.ts', { DATA_DIR: rawDir('projecting'), GROUP_COMMIT: '1', PROJECT: '1' });
  // Sign-ups from one address are limited (docs/auth.md): startService raises the limit, as for
  // tests, so that this measures the write path, not the limiter.
  const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous });
  const floorUrl = `http://127.0.0.1:${floor.port}`;
  const projectingUrl = `http://127.0.0.1:${projectingFloor.port}`;
  const runs = { ours: [] as WrkResult[], floor: [] as WrkResult[], projecting: [] as WrkResult[], writeSide: [] as WriteSideResult[] };
  const times = { ours: new ThreadTimes(), floor: new ThreadTimes(), projecting: new ThreadTimes() };
  try {
    await signUps(floorUrl, seconds);
    await signUps(projectingUrl, seconds);
    await signUps(service.url, seconds);
    for (let round = 0; round < ROUNDS; round++) {
      runs.floor.push(await measuredSignUps(floorUrl, seconds, floor.pid, times.floor));
      runs.projecting.push(await measuredSignUps(projectingUrl, seconds, projectingFloor.pid, times.projecting));
      runs.ours.push(await measuredSignUps(service.url, seconds, service.child.pid, times.ours));
      runs.writeSide.push(await writeSideAlone(rawDir('write-side'), seconds, synchronous));
    }
  } finally {
    floor.stop();
    projectingFloor.stop();
    await service.stop();
  }
  const ours = medianOf(`POST /users (SQLite synchronous=${synchronous})`, runs.ours, times.ours);
  const grouped = medianOf('Koa + the same 3 raw durable INSERTs in 2 files, group-committed', runs.floor, times.floor);
  const projecting = medianOf(
    "the same, and each new user's read-model row written on a thread of its own",
    runs.projecting,
    times.projecting,
  );
  const writeSide = medianWriteSide(runs.writeSide);
  const traced = await loadTraced(join(dataDir, 'traced'), synchronous, seconds);
  return { ours, grouped, projecting, single, bare, traced, writeSide };
}

/** The rounds' median of the rate and of each kind of thread's CPU a sign-up. */
function medianWriteSide(rounds: WriteSideResult[]): WriteSideResult {
  const median = (values: number[]) => p(values, 0.5);
  const counted = rounds.map((round) => round.cpu).filter((cpu) => cpu !== undefined);
  const kinds = [...new Set(counted.flatMap((cpu) => Object.keys(cpu.byKind)))] as Array<
    keyof NonNullable<WriteSideResult['cpu']>['byKind']
  >;
  return {
    perSecond: median(rounds.map((round) => round.perSecond)),
    cpu:
      counted.length === rounds.length
        ? {
            byKind: Object.fromEntries(kinds.map((kind) => [kind, median(counted.map((cpu) => cpu.byKind[kind] ?? 0))])),
            total: median(counted.map((cpu) => cpu.total)),
          }
        : undefined,
  };
}

/**
 * The same sign-ups with tracing on (docs/operations.md#traces): every span exported over OTLP/HTTP
 * to a collector in this process that reads each export and answers 200, so that the server pays
 * for making, batching, encoding and sending its spans, and nothing for a real collector's work.
 */
async function loadTraced(dataDir: string, synchronous: string, seconds: number): Promise<HttpResult> {
  const collector = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  try {
    const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    const traced = await warmThenLoad(`POST /users, traced (spans to a loopback collector)`, service.url, seconds, service.child.pid);
    await service.stop();
    return traced;
  } finally {
    collector.close();
  }
}
