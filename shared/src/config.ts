// Configuration from the environment, checked once at start-up with messages that say which
// variable is wrong. Engines are chosen by URL: unset means the embedded default.
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** EventStoreDB connection string, e.g. esdb://localhost:2113?tls=false; unset: embedded SQLite. */
  EVENTSTORE_URL: z.string().min(1).optional(),
  /** FULL survives power loss (default); NORMAL only a process crash, for a faster disk-bound append. */
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  /** MongoDB URL for the read models, e.g. mongodb://localhost:27017/eventide; unset: embedded SQLite. */
  MONGO_URL: z.string().min(1).optional(),
  /** Kafka bootstrap brokers, comma-separated (host:port,…); unset: events are not published to Kafka. */
  KAFKA_BROKERS: z
    .string()
    .min(1)
    .transform((list) => list.split(',').map((b) => b.trim()).filter(Boolean))
    .optional(),
  /** Topics are `<prefix><model>`: eventide.user, eventide.order, eventide.product by default. */
  KAFKA_TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only').default('eventide.'),
  /** Signs list cursors (32+ characters); unset: a random secret kept in DATA_DIR/cursor-secret. */
  CURSOR_SECRET: z.string().min(32, 'use at least 32 characters').optional(),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(64 * 1024),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR) };
}
