// POST /users requests per second through the whole stack (validation, email claim, the new
// person's key, two durable appends) against floors loaded the same way by autocannon from this
// process: a Koa handler making the same three durable inserts (the key, then both events),
// group-committed as our stores do and committed one by one; a bare Koa JSON handler that writes
// nothing (a reference, not a floor); and ours again with tracing on, for what it costs.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startService } from '../test/process.ts';
import { spawnServer } from './servers/spawn.ts';

export interface HttpResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Numbers the sign-ups of the whole run, so that no two loads (of one store) send the same email. */
let signUpCount = 0;

/** POST /users with a new email each time, for `seconds` on `connections` connections. */
export async function loadSignUps(name: string, url: string, seconds: number, connections: number): Promise<HttpResult> {
  const result = await autocannon({
    url: `${url}/users`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ name: 'Bench', email: `bench-${process.pid}-${signUpCount++}@example.com` }),
        }),
      },
    ],
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function loadServer(name: string, script: string, env: Record<string, string>, seconds: number, connections: number) {
  const { port, stop } = await spawnServer(script, env);
  try {
    return await loadSignUps(name, `http://127.0.0.1:${port}`, seconds, connections);
  } finally {
    stop();
  }
}

export interface HttpResults {
  ours: HttpResult;
  /** The same durable inserts per request (a key, two events), group-committed: the fair floor. */
  grouped: HttpResult;
  /** The same durable inserts per request, one transaction each. */
  single: HttpResult;
  /** No writes at all: what Koa and the HTTP stack cost alone. */
  bare: HttpResult;
  /** Ours again with every span exported: what tracing costs. */
  traced: HttpResult;
}

export async function benchHttp(dataDir: string, seconds: number, synchronous: string): Promise<HttpResults> {
  const connections = 32;
  const bare = await loadServer('bare Koa JSON handler (no writes)', './bare-koa.ts', {}, seconds, connections);
  const rawDir = (name: string) => {
    const dir = join(dataDir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const grouped = await loadServer(
    'Koa + the same 3 raw durable INSERTs in 2 files, group-committed',
    './raw-inserts.ts',
    { DATA_DIR: rawDir('grouped'), GROUP_COMMIT: '1' },
    seconds,
    connections,
  );
  const single = await loadServer(
    'Koa + the same 3 raw durable INSERTs, a transaction each',
    './raw-inserts.ts',
    { DATA_DIR: rawDir('single'), GROUP_COMMIT: '0' },
    seconds,
    connections,
  );
  // Sign-ups from one address are limited (docs/auth.md): startService raises the limit, as for
  // tests, so that this measures the write path, not the limiter.
  const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous });
  const ours = await loadSignUps(`POST /users (SQLite synchronous=${synchronous})`, service.url, seconds, connections);
  await service.stop();
  const traced = await loadTraced(join(dataDir, 'traced'), synchronous, seconds, connections);
  return { ours, grouped, single, bare, traced };
}

/**
 * The same sign-ups with tracing on (docs/operations.md#traces): every span exported over OTLP/HTTP
 * to a collector in this process that reads each export and answers 200, so that the server pays
 * for making, batching, encoding and sending its spans, and nothing for a real collector's work.
 */
async function loadTraced(dataDir: string, synchronous: string, seconds: number, connections: number): Promise<HttpResult> {
  const collector = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  try {
    const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    const traced = await loadSignUps(`POST /users, traced (spans to a loopback collector)`, service.url, seconds, connections);
    await service.stop();
    return traced;
  } finally {
    collector.close();
  }
}
