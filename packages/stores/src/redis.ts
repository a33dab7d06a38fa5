// Redis, when REDIS_URL is set: what several processes must share that is not in an event, a
// read model or a session — rate-limit counters and the collab service's pub/sub. Fit for
// production (any Redis 6+); the embedded default never loads it. This is the only file that
// imports the `redis` client; others are handed a connected client.
import { createClient, type RedisClientType } from 'redis';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import type { Logger } from '@eventide/kernel/log.ts';

export type RedisClient = RedisClientType;
type RedisSocketOptions = NonNullable<Parameters<typeof createClient>[0]>['socket'];

/** How long the first connection may take before start-up fails with a clear message. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The socket path of a `unix:///path/to/redis.sock` URL (node-redis parses only redis:// and rediss://). */
function unixSocketPath(url: string): string | undefined {
  const parsed = new URL(url);
  return parsed.protocol === 'unix:' ? decodeURIComponent(parsed.pathname) : undefined;
}

export interface RedisOpenOptions {
  log: Logger;
  /** What the connection is for, in its log lines. */
  purpose: string;
  /**
   * Fail a command at once while the connection is down, instead of queueing it until Redis is
   * back: for callers with a fallback (rate limits count in memory meanwhile).
   */
  failFast?: boolean;
}

/** A connected client that reconnects with our backoff and logs, rather than throws, its connection errors. */
export async function openRedis(url: string, { log, purpose, failFast = false }: RedisOpenOptions): Promise<RedisClient> {
  let failures = 0;
  const path = unixSocketPath(url);
  const client = createClient({
    ...(path ? {} : { url }),
    disableOfflineQueue: failFast,
    socket: {
      ...(path ? { path } : {}),
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => backoffDelay(retries + 1),
    } as RedisSocketOptions,
  }) as RedisClient;
  // Without a listener an 'error' event would end the process; each failed reconnect emits one.
  client.on('error', (error: Error) => {
    failures += 1;
    // The first failure of an outage, then one line in a hundred: a long outage does not flood the log.
    if (failures === 1 || failures % 100 === 0) log.warn({ err: error, purpose, failures }, 'redis connection failed; reconnecting');
  });
  client.on('ready', () => {
    if (failures > 0) log.info({ purpose, failures }, 'redis connection back');
    failures = 0;
  });
  // connect() keeps retrying while Redis is absent, and never settles once destroyed: race it.
  let timer: NodeJS.Timeout | undefined;
  const connecting = client.connect();
  connecting.catch(() => undefined);
  try {
    await Promise.race([
      connecting,
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw new Error(`REDIS_URL: could not connect to Redis for ${purpose}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** Closes a client: politely when connected, at once while Redis is away (close() would wait for it). */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.isReady) await client.close();
  else client.destroy();
}
