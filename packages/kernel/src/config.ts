// Configuration from the environment, checked once at start-up with messages that say which
// variable is wrong. Engines are chosen by URL: unset means the embedded default.
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * The address to listen on. Unset: every interface, or loopback alone for a process told it sits
     * behind a front door on this machine (TRUST_PROXY_HOPS), which only the door may reach: set it
     * (0.0.0.0, or the address the door reaches) when the door is elsewhere.
     */
    HOST: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Serves GET /metrics (Prometheus) on this port of its own; unset: no metrics server. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Where the metrics port listens: loopback unless the scraper is elsewhere. */
    METRICS_HOST: z.string().default('127.0.0.1'),
    /**
     * Traces (OpenTelemetry, OTLP over HTTP): the collector's base URL (spans go to <url>/v1/traces), or
     * the traces URL itself. Unset: no tracing. The exporter reads the other OTEL_EXPORTER_OTLP_* itself.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
    /** The service name on spans; default: the process's own (command-service, eventide, …). */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    /** GET /health/ready fails while the read models are more than this many events behind the event store. */
    READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(10_000),
    /** GET /health/ready fails while a follower of the log (projector, publisher, forgetter) has events waiting and has not moved for this long. */
    READY_MAX_STALL_SECONDS: z.coerce.number().int().min(1).default(60),
    /** EventStoreDB connection string, e.g. esdb://localhost:2113?tls=false; unset: embedded SQLite. */
    EVENTSTORE_URL: z.string().min(1).optional(),
    /**
     * PostgreSQL URL, e.g. postgresql://eventide:secret@db.internal/eventide, for the stores that have a
     * PostgreSQL adapter, before MONGO_URL (so far the event store, the key store and sign-in's: docs/engines.md);
     * unset: embedded SQLite. Several processes on one database share them. Not with EVENTSTORE_URL:
     * one engine holds the log.
     */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a PostgreSQL URL: postgresql://user:password@host:5432/database')
      .optional(),
    /** FULL survives power loss (default); NORMAL only a process crash, for a faster disk-bound append. */
    SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
    /** MongoDB URL for the read models, e.g. mongodb://localhost:27017/eventide; unset: embedded SQLite. */
    MONGO_URL: z.string().min(1).optional(),
    /** Kafka bootstrap brokers, comma-separated (host:port,…); unset: events are published on the in-process bus only. */
    KAFKA_BROKERS: z
      .string()
      .min(1)
      .transform((list) =>
        list
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      )
      .optional(),
    /** Topics are `<prefix><model>`: eventide.user, eventide.order, eventide.product by default. */
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only')
      .default('eventide.'),
    /**
     * Redis, for what several processes share: rate-limit counters and collab's pub/sub. Unset: both
     * stay in this process (one process per service kind). redis://, rediss:// or unix:///path.
     */
    REDIS_URL: z
      .url({ protocol: /^(rediss?|unix)$/, error: 'must be redis://host:port, rediss://host:port or unix:///path/to/redis.sock' })
      .optional(),
    /** Signs list cursors (32+ characters); unset: a random secret kept in DATA_DIR/cursor-secret. */
    CURSOR_SECRET: z.string().min(32, 'use at least 32 characters').optional(),
    /** Signs session cookies (32+ characters); unset: a random secret kept in DATA_DIR/session-secret. */
    SESSION_SECRET: z.string().min(32, 'use at least 32 characters').optional(),
    /** A session not used for this long ends. */
    SESSION_IDLE_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 60),
    /** A session ends this long after sign-in, however busy. */
    SESSION_ABSOLUTE_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(12 * 60 * 60),
    /** The origin browsers reach the service at, e.g. https://shop.example.com; builds the OAuth redirect URI. */
    PUBLIC_ORIGIN: z
      .url('must be a URL such as https://shop.example.com')
      .transform((u) => new URL(u).origin)
      .optional(),
    /** Other origins (comma-separated) whose pages may send state-changing requests. */
    ALLOWED_ORIGINS: z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url().transform((u) => new URL(u).origin)))
      .default([]),
    /** How many reverse proxies in front set X-Forwarded-For; 0 (default) ignores the header. */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Identity providers as JSON: {"name": {"type": "oidc", "issuer", "clientId", "clientSecret"} | {"type": "github", …}}. */
    AUTH_PROVIDERS: z.string().optional(),
    /** Sign-in: consecutive failures for one account from one address before a block. */
    SIGNIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    SIGNIN_BLOCK_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(15 * 60),
    SIGNIN_FAILURES_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_SEARCH_PER_SECOND: z.coerce.number().int().min(1).default(10),
    /**
     * Milliseconds of the server's time one client's reads (the read models' and the documents')
     * may take each second, in each process: a tenth of a core by default. Past it a read waits its
     * turn, up to a second, then is 429. 0 turns the budget off (a load test from one address).
     */
    RATE_LIMIT_READ_MS_PER_SECOND: z.coerce.number().int().min(0).max(1000).default(100),
    RATE_LIMIT_PROFILE_PER_SECOND: z.coerce.number().int().min(1).default(100),
    /** Sign-ups per hour from one address (each may tell whether an address is taken; docs/auth.md). */
    RATE_LIMIT_SIGN_UPS_PER_HOUR: z.coerce.number().int().min(1).default(20),
    /** Changes of a user's own email address per hour (the same reason). */
    RATE_LIMIT_EMAIL_CHANGES_PER_HOUR: z.coerce.number().int().min(1).default(10),
    /**
     * Answers one address gets in an hour that could tell whether an email has an account (a
     * sign-up, a change of address, a document shared by email), whichever users ask from it.
     */
    RATE_LIMIT_ACCOUNT_ANSWERS_PER_HOUR: z.coerce.number().int().min(1).default(20),
    /**
     * Where `npm start` runs the projector, the publisher and the forgetter: `on`, a thread of their
     * own; `off`, the thread that serves requests. Unset: on with two cores or more.
     */
    FOLLOWERS_THREAD: z.enum(['on', 'off']).optional(),
    /**
     * How many threads of `npm start` answer HTTP on PORT, sharing it (SO_REUSEPORT): the one that
     * writes, and HTTP_THREADS - 1 that serve the reads of the read models, the web app and the docs
     * and hand the rest to the first (docs/operations.md#request-threads). Unset: the cores available.
     */
    HTTP_THREADS: z.coerce.number().int().min(1).max(64).optional(),
    /**
     * An order placed and not paid within this many seconds is cancelled by the system, with the
     * reason in its history (docs/deadlines.md). 0: never.
     */
    PAYMENT_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(24 * 60 * 60),
    /** A reminder is due this many seconds before that deadline (a private event of the deadline); 0: none. */
    PAYMENT_REMINDER_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(60 * 60),
    /** Webhook endpoints one deployment may register (docs/webhooks.md). */
    WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).max(1000).default(20),
    /** Deliveries one endpoint may have waiting; past it, its events are not queued, and it is disabled. */
    WEBHOOK_MAX_QUEUED: z.coerce.number().int().min(1).default(10_000),
    /** How long a receiver has to answer a delivery, in milliseconds. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** How long a delivery is retried (with backoff) before it fails and its endpoint is disabled. */
    WEBHOOK_RETRY_HOURS: z.coerce
      .number()
      .min(0.001)
      .max(24 * 7)
      .default(24),
    /** Deliveries sent at once by a process. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
    /** After a rotation, how long the old secret still signs deliveries beside the new one. */
    WEBHOOK_SECRET_OVERLAP_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(24 * 60 * 60),
    /**
     * Address ranges (CIDR, comma-separated) webhooks may be delivered to although they are not
     * public (loopback, private, link-local), e.g. 10.1.0.0/16 for receivers inside the network;
     * plain http:// is allowed to these only. Unset: public addresses only, over https.
     */
    WEBHOOK_ALLOWED_RANGES: z
      .string()
      .transform((list) =>
        list
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .string()
            .refine(
              (range) => z.cidrv4().safeParse(range).success || z.cidrv6().safeParse(range).success,
              'must be a CIDR range such as 10.1.0.0/16 or fd00::/8',
            ),
        ),
      )
      .default([]),
    /**
     * For tests and rehearsals only: a file holding a number of milliseconds added to this
     * process's clock where it acts on time (the deadlines). Rewriting the file moves the time of
     * every process that names it (docs/deadlines.md#the-clock).
     */
    TEST_CLOCK_FILE: z.string().min(1).optional(),
    /** Password hashes computed at once; unset: the cores, at most one less than libuv's thread pool. */
    PASSWORD_HASHES_AT_ONCE: z.coerce.number().int().min(1).max(64).optional(),
    /** Collaborative editing: the largest WebSocket message accepted, in bytes. */
    COLLAB_MAX_MESSAGE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(256 * 1024),
    /** Collaborative editing: messages read per second per connection; beyond it, reading waits. */
    COLLAB_MESSAGES_PER_SECOND: z.coerce.number().int().min(1).default(100),
    /** Collaborative editing: connections one user may hold at once (per process). */
    COLLAB_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).default(8),
    /** Live change streams (GET /changes) one user may hold at once (per process): a tab holds one. */
    LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).default(6),
    /**
     * What all the live change streams of a process may hold unread together, in bytes (each is cut
     * at 1 MiB on its own): past it, the stream that holds the most is cut, and resumes.
     */
    LIVE_UNREAD_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .default(64 * 1024 * 1024),
    /** People a user may look up (by email or name) to share documents with, per hour. */
    COLLAB_SHARE_LOOKUPS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    /** Versions of documents a user may name, or take the name off, per hour. */
    COLLAB_VERSION_NAMES_PER_HOUR: z.coerce.number().int().min(1).default(120),
    /** Collaborative editing: ops one connection may have handled per second, one at a time, and how many may wait beyond that. */
    COLLAB_OPS_PER_SECOND: z.coerce.number().int().min(1).default(50),
    COLLAB_OPS_BURST: z.coerce.number().int().min(1).default(200),
    /** A client further behind than this many ops is told to reload the document instead of replaying them. */
    COLLAB_MAX_CATCH_UP_OPS: z.coerce.number().int().min(1).default(5000),
    /** Ops one connection may be caught up by per minute, once its first COLLAB_MAX_CATCH_UP_OPS are spent. */
    COLLAB_CATCH_UP_OPS_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
    /**
     * How often open collab connections are pinged and their sessions checked again (timeouts;
     * revocations end them at once). Under HTTP_SEND_TIMEOUT_MS, so that the front door, which closes
     * a connection with no traffic for that long, never closes an idle editor's.
     */
    COLLAB_CHECK_EVERY_SECONDS: z.coerce.number().int().min(1).default(20),
    /** Collaborative editing: the most characters (UTF-16 code units) a document may hold. */
    COLLAB_MAX_DOCUMENT_CHARACTERS: z.coerce.number().int().min(1).default(1_000_000),
    /** Documents one user may make in an hour (by the route or over the WebSocket), and own at once. */
    COLLAB_DOCUMENTS_PER_HOUR: z.coerce.number().int().min(1).default(100),
    COLLAB_MAX_DOCUMENTS_PER_USER: z.coerce.number().int().min(1).default(500),
    /** Characters all the documents one user owns may hold together; an op past it is refused (deleting always works). */
    COLLAB_MAX_CHARACTERS_PER_USER: z.coerce.number().int().min(1).default(20_000_000),
    /**
     * The history kept of each document: its last ops, at most this many and this many bytes of them
     * (the newest op always). Older ops are let go; a client further behind must reload the document.
     */
    COLLAB_HISTORY_OPS: z.coerce.number().int().min(1).default(5000),
    COLLAB_HISTORY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(2 * 1024 * 1024),
    /** A milestone snapshot every this many ops, and after this many seconds of editing. */
    COLLAB_SNAPSHOT_EVERY_OPS: z.coerce.number().int().min(1).default(100),
    COLLAB_SNAPSHOT_EVERY_SECONDS: z.coerce.number().int().min(1).default(60),
    /**
     * How long a client has to send a request's headers, and the whole request, in milliseconds:
     * a connection that trickles them in (slowloris) is answered 408 and closed then.
     */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
    /**
     * At SIGTERM, how long requests in flight get to be answered before their connections are cut
     * (docs/operations.md#starting-and-stopping). The process exits within this and CLOSE_BOUND
     * (3 s) more, whatever its stores do.
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /**
     * How long a connection may leave an answer, stream or WebSocket's bytes unsent, taking none of
     * them, in milliseconds: then it is reset and what it held is freed. A client that reads at all
     * (64 KiB within this) is never cut.
     */
    HTTP_SEND_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
    /**
     * The kernel's send buffer of each connection, in bytes (Linux keeps twice this); 0 leaves its
     * own sizing, up to 4 MiB a socket. It bounds what a reader that takes nothing pins outside the
     * process, and one connection's throughput to about this twice per round trip (2.6 MB/s at 50 ms).
     */
    HTTP_SEND_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(16 * 1024 * 1024)
      .default(64 * 1024),
    /** How long an idle keep-alive connection is kept open between requests, in milliseconds. */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    /** Open connections in all (WebSockets and event streams included): beyond it a new one is closed at once. */
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(8_000),
    /**
     * Open connections from one address (an IPv6 client by its /64): beyond it that address's new
     * connections are closed at once, and everyone else's are still taken. Not applied behind a
     * trusted proxy (TRUST_PROXY_HOPS), where every connection comes from the proxy: the front door caps there.
     */
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(256),
    /** Personal-data exports one process sends at once (each streams, one per person at a time); more wait with 503. */
    EXPORTS_AT_ONCE: z.coerce.number().int().min(1).default(4),
    /**
     * Bytes a second an export must be taken at, over 10 s, to keep its place: one taken more slowly
     * is cut (a newcomer takes the place of the slowest such at once).
     */
    EXPORT_MIN_BYTES_PER_SECOND: z.coerce
      .number()
      .int()
      .min(1)
      .default(16 * 1024),
    /** Largest JSON body accepted, in bytes. */
    BODY_LIMIT: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),
  })
  .refine((config) => !(config.DATABASE_URL && config.EVENTSTORE_URL), {
    path: ['DATABASE_URL'],
    message: 'EVENTSTORE_URL is set too: the log is kept by one engine, so set one of them',
  })
  .refine((config) => config.METRICS_PORT === undefined || config.METRICS_PORT === 0 || !sharePort(config), {
    path: ['METRICS_PORT'],
    message: 'the same as PORT, on an address both would listen on: the metrics need a port of their own',
  })
  .refine((config) => config.PAYMENT_WINDOW_SECONDS === 0 || config.PAYMENT_REMINDER_SECONDS < config.PAYMENT_WINDOW_SECONDS, {
    path: ['PAYMENT_REMINDER_SECONDS'],
    message: 'must be less than PAYMENT_WINDOW_SECONDS: the reminder comes before the deadline',
  });

export type Config = z.infer<typeof schema> & { dataDir: string };

/** The addresses that mean every interface of the machine. */
export const EVERY_INTERFACE = ['0.0.0.0', '::'];

/** Whether the service and its metrics would listen on one port: the same, on addresses that meet (one of them every interface). */
function sharePort(config: {
  PORT: number;
  METRICS_PORT?: number;
  METRICS_HOST: string;
  HOST?: string;
  TRUST_PROXY_HOPS: number;
}): boolean {
  const host = listenHost(config);
  return (
    config.PORT === config.METRICS_PORT &&
    (host === config.METRICS_HOST || EVERY_INTERFACE.includes(host) || EVERY_INTERFACE.includes(config.METRICS_HOST))
  );
}

/** Where a process listens: HOST, else loopback behind a front door (TRUST_PROXY_HOPS), else every interface. */
export const listenHost = (config: { HOST?: string; TRUST_PROXY_HOPS: number }): string =>
  config.HOST ?? (config.TRUST_PROXY_HOPS > 0 ? '127.0.0.1' : '0.0.0.0');

/** Every variable the configuration reads (docs/operations.md#configuration lists each, and a test holds it to that). */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as (keyof z.infer<typeof schema>)[];

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR) };
}
