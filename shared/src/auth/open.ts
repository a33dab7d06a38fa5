// Chooses where sessions and rate-limit counters live from configuration: MongoDB when its URL
// is set (shared by every process), otherwise SQLite under the data directory for sessions
// and memory for counters.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { loadOrCreateSecret } from '../secret.ts';
import { memoryLimiters, mongoLimiters, type LimiterFactory } from './rate-limit.ts';
import type { SessionOptions } from './session.ts';
import { hashedKeys } from './session-store/keys.ts';
import { openMongoSessionStore } from './session-store/mongo.ts';
import type { SessionStore } from './session-store/port.ts';
import { openSqliteSessionStore } from './session-store/sqlite.ts';

export interface HttpAuth {
  sessions: SessionOptions;
  limiters: LimiterFactory;
  /** Origins besides the request's own whose pages may change state. */
  allowedOrigins: string[];
  trustProxyHops: number;
}

export interface OpenedAuth extends HttpAuth {
  description: string;
  close(): Promise<void>;
}

export async function openAuth(config: Config, options: { clock?: () => number } = {}): Promise<OpenedAuth> {
  const secret = loadOrCreateSecret(config.SESSION_SECRET, join(config.dataDir, 'session-secret'));
  let raw: SessionStore;
  let limiters: LimiterFactory;
  let description: string;
  if (config.MONGO_URL) {
    const opened = await openMongoSessionStore(config.MONGO_URL);
    raw = opened.store;
    limiters = mongoLimiters(opened.client);
    description = 'sessions and rate limits in MongoDB';
  } else {
    const path = join(config.dataDir, 'sessions.db');
    raw = openSqliteSessionStore(path);
    limiters = memoryLimiters();
    description = `sessions in SQLite at ${path}, rate limits in memory`;
  }
  const store = hashedKeys(raw);
  return {
    sessions: {
      store,
      keys: [secret.toString('base64')],
      idleMs: config.SESSION_IDLE_SECONDS * 1000,
      absoluteMs: config.SESSION_ABSOLUTE_SECONDS * 1000,
      ...(options.clock ? { clock: options.clock } : {}),
    },
    limiters,
    allowedOrigins: [...(config.PUBLIC_ORIGIN ? [config.PUBLIC_ORIGIN] : []), ...config.ALLOWED_ORIGINS],
    trustProxyHops: config.TRUST_PROXY_HOPS,
    description,
    close: () => store.close(),
  };
}
