// Per-endpoint, per-client rate limits on rate-limiter-flexible. Counters live in memory on the
// embedded default (one process), and where every process shares them otherwise: Redis when
// REDIS_URL is set, else PostgreSQL (DATABASE_URL) or MongoDB with real engines. A memory limiter stands in while the shared
// store cannot be reached, so an outage does not become one of ours. A shared store holds each
// counter under a keyed hash of its key, never the key: keys hold email addresses (failed
// sign-ins per account) and client addresses, and whoever reads the store must not read those.
import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRes, storeLimiters, type RateLimiterAbstract } from './limiter-classes.ts';
import { problems } from '@eventide/contract/problems.ts';
import { addressKey } from './client-address.ts';
import { sessionUser } from './session.ts';

export interface LimitSpec {
  /** Names the counter; also the key prefix in a shared store. */
  name: string;
  points: number;
  /** Window in seconds. */
  duration: number;
  /** Once the points are spent, refuse for this long (seconds); default: until the window ends. */
  blockDuration?: number;
  /** What is counted, for the refusal's detail; default "requests to this endpoint". */
  what?: string;
}

export type LimiterFactory = (spec: LimitSpec) => RateLimiterAbstract;

/**
 * One counter per name in a process, however many parts ask for it: a limit spent both by a route
 * and by the WebSocket (document creation) counts once, on the embedded store too, whose counters
 * live in the limiter itself.
 */
export function oneCounterPerName(limiters: LimiterFactory): LimiterFactory {
  const made = new Map<string, { spec: LimitSpec; limiter: RateLimiterAbstract }>();
  return (spec) => {
    const found = made.get(spec.name);
    if (!found) {
      const limiter = limiters(spec);
      made.set(spec.name, { spec, limiter });
      return limiter;
    }
    if (found.spec.points !== spec.points || found.spec.duration !== spec.duration || found.spec.blockDuration !== spec.blockDuration) {
      throw new Error(`the limit ${spec.name} is asked for with two budgets`);
    }
    return found.limiter;
  };
}

export function memoryLimiters(): LimiterFactory {
  return (spec) =>
    new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.duration, blockDuration: spec.blockDuration ?? 0 });
}

/** What a counter's key becomes in a shared store: an HMAC under the deployment's secret, so that neither the key nor a guess of it can be read there. */
export type KeyBlinder = (key: string) => string;

export function keyBlinder(secret: Buffer): KeyBlinder {
  return (key) => createHmac('sha256', secret).update(key).digest('base64url');
}

/** Limiters that store `blind(key)` for each key, whatever they are asked with (their insurance limiter too). */
function blinded<Limiter extends RateLimiterAbstract>(limiter: Limiter, blind: KeyBlinder): Limiter {
  const storeKey = limiter.getKey.bind(limiter);
  // rate-limiter-flexible turns every key into its store key here, and nowhere else.
  limiter.getKey = (key) => storeKey(blind(String(key)));
  return limiter;
}

/**
 * Limiters whose counters a shared store keeps: each with the spec's budget, a memory limiter with
 * the same budget standing in while the store cannot be reached, and keys blinded. `make` says
 * where and how (the library's options for that store).
 */
function sharedLimiters(
  blind: KeyBlinder,
  make: (
    spec: LimitSpec,
    budget: { points: number; duration: number; blockDuration: number; insuranceLimiter: RateLimiterAbstract },
  ) => RateLimiterAbstract,
): LimiterFactory {
  // One per name, so that every limiter of a name (a request thread's asks among them) spends one budget in an outage.
  const memory = oneCounterPerName(memoryLimiters());
  return (spec) =>
    blinded(
      make(spec, { points: spec.points, duration: spec.duration, blockDuration: spec.blockDuration ?? 0, insuranceLimiter: memory(spec) }),
      blind,
    );
}

/** `client`: a connected MongoClient (the session store's). */
export function mongoLimiters(client: unknown, blind: KeyBlinder): LimiterFactory {
  const RateLimiterMongo = storeLimiters.mongo();
  return sharedLimiters(
    blind,
    (spec, budget) => new RateLimiterMongo({ storeClient: client, tableName: 'rate_limits', keyPrefix: spec.name, ...budget }),
  );
}

/** `pool`: a pg pool on the database whose auth tables hold the counters (stores/postgres/auth-schema.ts, already made). */
export function postgresLimiters(pool: unknown, table: string, blind: KeyBlinder): LimiterFactory {
  const RateLimiterPostgres = storeLimiters.postgres();
  return sharedLimiters(
    blind,
    (spec, budget) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: table,
        tableCreated: true,
        keyPrefix: spec.name,
        ...budget,
      }),
  );
}

/** `client`: a connected node-redis client opened with failFast (redis.ts), so that an outage falls back at once. */
export function redisLimiters(client: unknown, blind: KeyBlinder): LimiterFactory {
  const RateLimiterRedis = storeLimiters.redis();
  return sharedLimiters(
    blind,
    (spec, budget) =>
      new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: `eventide:limit:${spec.name}`,
        ...budget,
      }),
  );
}

/**
 * The client a limit counts for: the signed-in user, else the address (ctx.ip honours
 * X-Forwarded-For only when app.proxy is set; an IPv6 client counts by its /64).
 */
export function clientKey(ctx: Context): string {
  const user = sessionUser(ctx);
  return user ? `user:${user.id}` : `ip:${addressKey(ctx.ip)}`;
}

/** Spends `points` for `key`, or answers the refusal: rate-limiter-flexible rejects with it. */
export async function spend(limiter: RateLimiterAbstract, key: string, points = 1): Promise<{ ok: boolean; res: RateLimiterRes }> {
  try {
    return { ok: true, res: await limiter.consume(key, points) };
  } catch (error) {
    if (error instanceof RateLimiterRes) return { ok: false, res: error };
    throw error;
  }
}

/** RateLimit-* (draft-ietf-httpapi-ratelimit-headers, the widely deployed form) and, when refused, Retry-After. */
export function limitHeaders(spec: LimitSpec, res: RateLimiterRes, refused: boolean): Record<string, string> {
  const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    'RateLimit-Policy': `${spec.points};w=${spec.duration}`,
    'RateLimit-Limit': String(spec.points),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(resetSeconds),
    ...(refused ? { 'Retry-After': String(resetSeconds) } : {}),
  };
}

/** Spends one point for a key, or throws 429 with Retry-After once they are spent; sets the RateLimit headers. */
export function limiter(limiters: LimiterFactory, spec: LimitSpec): (ctx: Context, key: string) => Promise<void> {
  const counter = limiters(spec);
  return async (ctx, key) => {
    const { ok, res } = await spend(counter, key);
    if (!ok) {
      const what = spec.what ?? 'requests to this endpoint';
      throw problems.tooManyRequests(
        `at most ${spec.points} ${what} in ${spec.duration} s; try again later`,
        limitHeaders(spec, res, true),
      );
    }
    ctx.set(limitHeaders(spec, res, false));
  };
}
