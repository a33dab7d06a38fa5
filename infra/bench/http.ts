// POST /users requests per second through the whole stack (validation, email claim, two
// durable appends) against a bare Koa JSON handler, both loaded by autocannon from this process.
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

async function load(name: string, url: string, seconds: number, connections: number): Promise<HttpResult> {
  let n = 0;
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
          body: JSON.stringify({ name: 'Bench', email: `bench-${process.pid}-${n++}@example.com` }),
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

async function startBareKoa(): Promise<{ url: string; stop: () => void }> {
  const { port, stop } = await spawnServer('./bare-koa.ts');
  return { url: `http://127.0.0.1:${port}`, stop };
}

export async function benchHttp(dataDir: string, seconds: number, synchronous: string): Promise<{ ours: HttpResult; floor: HttpResult }> {
  const connections = 32;
  const bare = await startBareKoa();
  const floor = await load('bare Koa JSON handler', bare.url, seconds, connections);
  bare.stop();
  // Sign-ups from one address are limited (docs/auth.md): startService raises the limit, as for
  // tests, so that this measures the write path, not the limiter.
  const service = await startService({ DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: synchronous });
  const ours = await load(`POST /users (SQLite synchronous=${synchronous})`, service.url, seconds, connections);
  await service.stop();
  return { ours, floor };
}
