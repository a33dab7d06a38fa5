// The whole system in-process on the embedded adapters: command and query routes, projector,
// sessions, and with `collab` the collaborative editing service too. The app's own client
// methods act as a signed-in admin; `anonymous()` has no session.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { KeyStore } from '@eventide/stores/key-store/port.ts';
import { createLogger, type Logger } from '@eventide/kernel/log.ts';
import type { ReadStore } from '@eventide/stores/read-store/port.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import type { Upcasters } from '@eventide/kernel/events/versions.ts';
import { jsonClient, listenOnLoopback, type JsonClient, type Reply } from '@eventide/testing/json-client.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { httpAppOf } from '@eventide/runtime/http.ts';
import { routesServedBy } from '@eventide/platform/http/app.ts';
import { routerPath } from '@eventide/contract/routes.ts';
import { commandService } from '@eventide/command-service/src/service.ts';
import type { SignedIn } from '@eventide/testing/sign-in.ts';
import { signUpAdmin } from '@eventide/command-service/src/testing/admin.ts';
import { queryService } from '@eventide/query-service/src/service.ts';
import type { Projector } from '@eventide/projector/src/projector.ts';
import { projectorService } from '@eventide/projector/src/service.ts';
import { collabService } from '@eventide/collab-service/src/service.ts';
import type { Collab } from '@eventide/collab-service/src/wire.ts';
import type { CollabBackend } from '@eventide/collab-service/src/sharedb/backend.ts';
import { apiDocsService } from '@eventide/runtime/docs-service.ts';
import { personalDataExportService } from '@eventide/runtime/export-service.ts';
import { webAppService } from '@eventide/web/src/service.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { afterAll } from 'vitest';

/**
 * EVENTIDE_TEST_ENGINE=postgres runs every app on PostgreSQL (DATABASE_URL), a database of its own
 * for each data directory on one throwaway server per test file: the same tests on the production
 * engine (npm run test:postgres).
 */
const ENGINE = process.env.EVENTIDE_TEST_ENGINE;
let postgres: Promise<TestPostgres> | undefined;
const databases = new Map<string, string>();
if (ENGINE === 'postgres') afterAll(async () => (await postgres)?.remove());

/** The tables of the database with a row that holds `text` anywhere (a row as text: every column, JSON included). */
async function tablesHolding(url: string, text: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const holding: string[] = [];
    for (const { name } of rows) {
      const found = await client.query(`SELECT 1 FROM ${client.escapeIdentifier(name)} AS t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [text]);
      if (found.rowCount) holding.push(name);
    }
    return holding;
  } finally {
    await client.end();
  }
}

async function engineEnv(dir: string): Promise<Record<string, string>> {
  if (ENGINE !== 'postgres') return {};
  postgres ??= startPostgres();
  let url = databases.get(dir);
  if (!url) {
    url = await (await postgres).database();
    databases.set(dir, url);
  }
  return { DATABASE_URL: url };
}

export interface RouteInfo {
  methods: string[];
  path: string;
}

export interface FullApp extends JsonClient {
  url: string;
  /** Where the embedded stores keep their files. */
  dataDir: string;
  /** The settings that name its stores (DATA_DIR, and DATABASE_URL on PostgreSQL): what a CLI beside it is run with. */
  storeEnv: Record<string, string>;
  /** Where the stores hold these characters: the data directory's files, and on PostgreSQL its tables (`postgres:<table>`). */
  placesHolding(text: string): Promise<string[]>;
  auth: OpenedAuth;
  /** Every route the app serves (each path with its methods), for tests that must reach them all. */
  routes: RouteInfo[];
  admin: SignedIn;
  anonymous(): JsonClient;
  eventStore: EventStore;
  /** The keys that seal personal data in the events. */
  keys: KeyStore;
  readStore: ReadStore;
  /** What the followers parked (stores/parked). */
  parked: ParkedEvents;
  /** The in-process bus the projector publishes on (Kafka when KAFKA_BROKERS is in `env`). */
  eventBus: EventBus;
  projector: Projector;
  /** The collab service's ShareDB backend and its history, when started with `collab`. */
  collab?: CollabBackend;
  /** Writes, and gives the reply's Event-Position as `position`, for a read to wait on (Wait-For-Position). */
  write(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; position: number }>;
  /** Cuts every open connection, as a network failure would. */
  dropConnections(): void;
  close(): Promise<void>;
}

export interface FullAppOptions {
  env?: Record<string, string>;
  log?: Logger;
  onReply?: (reply: Reply) => void;
  /** Serve the collab service as well (its routes and the /collab WebSocket). */
  collab?: boolean;
  /** Replaces the password hasher (cheaper parameters, or one a test holds at a gate). */
  hasher?: PasswordHasher;
  /** Plays another release: what it knows of each event's versions. */
  upcasters?: Upcasters;
  /** A data directory of the test's (to start again on it); a new one when absent, removed on close. */
  dir?: string;
}

export async function startFullApp(options: FullAppOptions = {}): Promise<FullApp> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'eventide-full-'));
  const storeEnv: Record<string, string> = { DATA_DIR: dir, ...(await engineEnv(dir)) };
  const config = loadConfig({ ...storeEnv, ...TEST_ENV, SQLITE_SYNCHRONOUS: 'NORMAL', ...options.env });
  const log = options.log ?? createLogger({ level: 'silent' });
  const composition = await compose(
    { config, log, ...(options.upcasters ? { upcasters: options.upcasters } : {}) },
    {
      command: commandService(options.hasher ? { hasher: options.hasher } : {}),
      projector: projectorService(),
      query: queryService(),
      ...(options.collab ? { collab: collabService() } : {}),
      export: personalDataExportService(),
      docs: apiDocsService(),
      web: webAppService(),
    },
  );
  const { store: eventStore, auth } = composition.services.command;
  const { projector } = composition.services.projector;
  const collab = options.collab
    ? (composition.services as { collab?: { collab: { current(): Collab | undefined } } }).collab?.collab.current()?.collab
    : undefined;
  const readStore = (await composition.platform.readModels()).store;
  const { keys } = await composition.platform.eventStore();
  const eventBus = (await composition.platform.eventBus()).store;
  const parked = (await composition.platform.parked()).store;
  const app = httpAppOf(composition, log);
  const { server, url } = await listenOnLoopback(app);
  composition.attach(server);
  // Every reply is checked against /openapi.json as well (setup/openapi-conformance.ts).
  const clientOptions = options.onReply ? { onReply: options.onReply } : {};
  const client = jsonClient(url, clientOptions);
  const admin = await signUpAdmin(client, eventStore, auth.sessions.store);
  // Each path with its methods, as the router writes it (/users/:id).
  const methods = new Map<string, string[]>();
  for (const route of routesServedBy(app)) {
    const path = routerPath(route.path);
    methods.set(path, [...(methods.get(path) ?? []), route.method.toUpperCase()]);
  }
  const routes = [...methods].map(([path, m]) => ({ methods: m, path }));
  return {
    url,
    dataDir: dir,
    storeEnv,
    async placesHolding(text) {
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => {
        try {
          return readFileSync(join(dir, name)).includes(text);
        } catch {
          return false; // a directory
        }
      });
      return [...files, ...(storeEnv.DATABASE_URL ? (await tablesHolding(storeEnv.DATABASE_URL, text)).map((t) => `postgres:${t}`) : [])];
    },
    auth,
    routes,
    admin,
    anonymous: () => jsonClient(url, clientOptions),
    eventStore,
    keys,
    readStore,
    parked,
    eventBus,
    projector,
    ...(collab ? { collab } : {}),
    ...client,
    async write(method, path, body) {
      const reply = await client.request(method, path, body);
      return { status: reply.status, body: reply.body, position: Number(reply.headers.get('event-position')) };
    },
    dropConnections() {
      server.closeAllConnections();
    },
    async close() {
      await composition.disconnect();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await composition.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
