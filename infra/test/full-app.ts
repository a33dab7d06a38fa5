// The whole system in-process on the embedded adapters: command and query routes, projector,
// sessions, and with `collab` the collaborative editing service too. The app's own client
// methods act as a signed-in admin; `anonymous()` has no session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PasswordHasher } from '@eventide/shared/auth/hasher.ts';
import { openAuth, type OpenedAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { openSqliteEventStore } from '@eventide/shared/event-store/sqlite.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { createLogger, type Logger } from '@eventide/shared/log.ts';
import type { ReadStore } from '@eventide/shared/read-store/port.ts';
import { openSqliteReadStore } from '@eventide/shared/read-store/sqlite.ts';
import { jsonClient, listenOnLoopback, type JsonClient, type Reply } from '@eventide/shared/testing/json-client.ts';
import { authDeps } from '@eventide/command-service/src/account/wire.ts';
import { commandRoutes } from '@eventide/command-service/src/routes.ts';
import { signUpAdmin, type SignedIn } from '@eventide/command-service/src/testing/sign-in.ts';
import { queryRoutes } from '@eventide/query-service/src/routes.ts';
import { queryDeps } from '@eventide/query-service/src/wire.ts';
import { startProjector, type Projector } from '@eventide/projector/src/projector.ts';
import { openCollab } from '@eventide/collab-service/src/wire.ts';
import { TEST_ENV } from '@eventide/shared/testing/test-env.ts';

export interface RouteInfo {
  methods: string[];
  path: string;
}

export interface FullApp extends JsonClient {
  url: string;
  auth: OpenedAuth;
  /** Every route the routers serve, for tests that must reach them all. */
  routes: RouteInfo[];
  admin: SignedIn;
  anonymous(): JsonClient;
  eventStore: EventStore;
  readStore: ReadStore;
  projector: Projector;
  /** Writes, then waits for the read side to reach the write: read-your-writes. */
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
}

export async function startFullApp(options: FullAppOptions = {}): Promise<FullApp> {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-full-'));
  const config = loadConfig({ DATA_DIR: dir, ...TEST_ENV, ...options.env });
  const auth = await openAuth(config);
  const eventStore = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const readStore = openSqliteReadStore(join(dir, 'read.db'));
  const log = options.log ?? createLogger({ level: 'silent' });
  const projector = startProjector({ eventStore, readStore, log });
  const collab = options.collab ? await openCollab(config, { auth, log }) : undefined;
  const routers = [
    ...commandRoutes({ store: eventStore, bodyLimit: 64 * 1024, auth: { ...authDeps(config, auth), ...(options.hasher ? { hasher: options.hasher } : {}) } }),
    ...queryRoutes(queryDeps(config, readStore, { subscribe: (listener) => projector.onProgress(listener), eventStore, limiters: auth.limiters })),
    ...(collab?.routers ?? []),
  ];
  const app = createHttpApp({ log, auth, routers });
  const { server, url } = await listenOnLoopback(app);
  collab?.attach(server);
  const clientOptions = options.onReply ? { onReply: options.onReply } : {};
  const client = jsonClient(url, clientOptions);
  const admin = await signUpAdmin(client, eventStore, auth.sessions.store);
  const routes = routers.flatMap((router) =>
    router.stack.filter((layer) => layer.methods.length > 0).map((layer) => ({ methods: layer.methods.filter((m) => m !== 'HEAD'), path: String(layer.path) })),
  );
  return {
    url,
    auth,
    routes,
    admin,
    anonymous: () => jsonClient(url, clientOptions),
    eventStore,
    readStore,
    projector,
    ...client,
    async write(method, path, body) {
      const reply = await client.request(method, path, body);
      return { status: reply.status, body: reply.body, position: Number(reply.headers.get('event-position')) };
    },
    dropConnections() {
      server.closeAllConnections();
    },
    async close() {
      await collab?.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await projector.stop();
      await readStore.close();
      await eventStore.close();
      await auth.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
