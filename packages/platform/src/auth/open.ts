// Chooses where sessions and rate-limit counters live from configuration: PostgreSQL or MongoDB
// when its URL is set (the first when both are; shared by every process), otherwise SQLite under
// the data directory for sessions and memory for counters (shared-counters.ts: shared by the
// process's threads). Counters go to Redis when REDIS_URL is set, whatever holds sessions.
import { join } from 'node:path';
import type { Config } from '@eventide/kernel/config.ts';
import { loadOrCreateSecret } from '@eventide/kernel/secret.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import type { RedisClient } from '@eventide/stores/redis.ts';
import {
  keyBlinder,
  memoryLimiters,
  mongoLimiters,
  oneCounterPerName,
  postgresLimiters,
  redisLimiters,
  type LimiterFactory,
} from './rate-limit.ts';
import { createCounterTable, tableLimiters, type CounterTable } from './shared-counters.ts';
import type { SessionOptions } from './session.ts';
import type { RevocationFeed } from '@eventide/stores/revocations/port.ts';
import { openSqliteRevocations } from '@eventide/stores/revocations/sqlite.ts';
import { hashedKeys } from '@eventide/stores/session-store/keys.ts';
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import { revokingSessions } from '@eventide/stores/session-store/revoking.ts';
import { openSqliteSessionStore } from '@eventide/stores/session-store/sqlite.ts';

export interface HttpAuth {
  sessions: SessionOptions;
  limiters: LimiterFactory;
  /** Origins besides the request's own whose pages may change state. */
  allowedOrigins: string[];
  trustProxyHops: number;
}

export interface OpenedAuth extends HttpAuth {
  /** Ended sessions and withdrawn access, from every process sharing the store. */
  revocations: RevocationFeed;
  description: string;
  /** Reads from the session store (GET /health/ready): rejects when it does not answer. */
  probe(): Promise<void>;
  /**
   * The counters for the process's request threads, before anything counts their refusals (each
   * thread counts those it is answered): `served` answers their asks over a port; `table`, when the
   * counters are in memory, is shared with them, so that they count without asking.
   */
  threadLimits: { served: LimiterFactory; table?: CounterTable };
  /** Asks Redis, when the counters are there (GET /health/ready). */
  limitsProbe?(): Promise<void>;
  close(): Promise<void>;
}

export interface AuthOptions {
  clock?: () => number;
  /** Where a revocation that could not be delivered is reported. */
  onError?: (error: unknown) => void;
  /** Where the Redis connection's outages are logged. */
  log?: Logger;
}

export async function openAuth(config: Config, options: AuthOptions = {}): Promise<OpenedAuth> {
  const secret = loadOrCreateSecret(config.SESSION_SECRET, join(config.dataDir, 'session-secret'));
  let raw: SessionStore;
  let limiters: LimiterFactory;
  let table: CounterTable | undefined;
  let revocations: RevocationFeed;
  let sessionsWhere: string;
  let limitsWhere: string;
  const onError = options.onError ?? ((error: unknown) => console.error('revocation feed:', error));
  let closeDatabase: (() => Promise<void>) | undefined;
  if (config.DATABASE_URL) {
    // Loaded only here, so the embedded default never loads the PostgreSQL client.
    const { openPool } = await import('@eventide/stores/postgres/pool.ts');
    const { migrateAuth, RATE_LIMITS_TABLE } = await import('@eventide/stores/postgres/auth-schema.ts');
    const { postgresSessionStore } = await import('@eventide/stores/session-store/postgres.ts');
    const { postgresRevocations } = await import('@eventide/stores/revocations/postgres.ts');
    const pool = openPool(config.DATABASE_URL, 4);
    await migrateAuth(pool);
    raw = postgresSessionStore(pool);
    limiters = postgresLimiters(pool, RATE_LIMITS_TABLE, keyBlinder(secret));
    revocations = await postgresRevocations(pool, config.DATABASE_URL, { onError });
    closeDatabase = () => pool.end();
    sessionsWhere = 'PostgreSQL';
    limitsWhere = 'PostgreSQL';
  } else if (config.MONGO_URL) {
    // Loaded only here, so the embedded default never loads the MongoDB driver.
    const { openMongoSessionStore } = await import('@eventide/stores/session-store/mongo.ts');
    const { openMongoRevocations } = await import('@eventide/stores/revocations/mongo.ts');
    const opened = await openMongoSessionStore(config.MONGO_URL);
    raw = opened.store;
    limiters = mongoLimiters(opened.client, keyBlinder(secret));
    revocations = await openMongoRevocations(opened.client, { onError });
    sessionsWhere = 'MongoDB';
    limitsWhere = 'MongoDB';
  } else {
    const path = join(config.dataDir, 'sessions.db');
    raw = openSqliteSessionStore(path);
    table = createCounterTable();
    // The memory limiters count, one per name, the keys for which the table has no room.
    limiters = tableLimiters(table, oneCounterPerName(memoryLimiters()));
    revocations = openSqliteRevocations(path, { onError });
    sessionsWhere = `SQLite at ${path}`;
    limitsWhere = 'memory';
  }
  let redis: RedisClient | undefined;
  let closeRedis: ((client: RedisClient) => Promise<void>) | undefined;
  if (config.REDIS_URL) {
    // Loaded only here, so the embedded default never loads the Redis client.
    const { openRedis, closeRedis: close } = await import('@eventide/stores/redis.ts');
    closeRedis = close;
    const log = options.log ?? (await import('@eventide/kernel/log.ts')).createLogger({ level: config.LOG_LEVEL });
    redis = await openRedis(config.REDIS_URL, { log, purpose: 'rate limits', failFast: true });
    limiters = redisLimiters(redis, keyBlinder(secret));
    table = undefined;
    limitsWhere = 'Redis';
  }
  const description = `sessions and revocations in ${sessionsWhere}, rate limits in ${limitsWhere}`;
  // Keys are hashed before anything below sees them, so revocations carry store keys, never ids.
  const store = hashedKeys(revokingSessions(raw, revocations));
  return {
    sessions: {
      store,
      keys: [secret.toString('base64')],
      idleMs: config.SESSION_IDLE_SECONDS * 1000,
      absoluteMs: config.SESSION_ABSOLUTE_SECONDS * 1000,
      ...(options.clock ? { clock: options.clock } : {}),
    },
    limiters,
    threadLimits: { served: oneCounterPerName(limiters), ...(table ? { table } : {}) },
    allowedOrigins: [...(config.PUBLIC_ORIGIN ? [config.PUBLIC_ORIGIN] : []), ...config.ALLOWED_ORIGINS],
    trustProxyHops: config.TRUST_PROXY_HOPS,
    revocations,
    description,
    async probe() {
      await raw.get('readiness-probe');
    },
    ...(redis ? { limitsProbe: async () => void (await redis.ping()) } : {}),
    async close() {
      await revocations.close();
      await store.close();
      await closeDatabase?.();
      if (redis) await closeRedis?.(redis);
    },
  };
}
