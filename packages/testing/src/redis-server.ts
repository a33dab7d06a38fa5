// A real Redis for the tests (Debian's `redis-server`), on a Unix socket in a directory of its
// own: no port to race for, no file kept. REDIS_URL in the tests' environment points them at a
// Redis of one's own instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnInGroup } from './processes.ts';
import { START_BOUND_MS } from './wait.ts';

export interface TestRedis {
  url: string;
  /** Stops the server (a SIGKILL with `kill`: an outage as a crash gives it). */
  stop(options?: { kill?: boolean }): Promise<void>;
}

/** Why no Redis can be had here, or undefined when one can. */
export function redisUnavailable(): string | undefined {
  if (process.env.REDIS_URL) return undefined;
  if (spawnSync('redis-server', ['--version']).status === 0) return undefined;
  return 'neither REDIS_URL is set nor redis-server installed (apt-get install -y redis-server)';
}

export async function startRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'eventide-redis-'));
  const socket = join(dir, 'redis.sock');
  const child = spawnInGroup('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not say it was ready within ${START_BOUND_MS} ms; it wrote: ${seen || '(nothing)'}`)),
      START_BOUND_MS,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/ready to accept connections/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${seen}`)));
  });
  return {
    url: `unix://${socket}`,
    async stop({ kill = false } = {}) {
      if (child.exitCode === null) child.kill(kill ? 'SIGKILL' : 'SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
