// The collab service in-process on the embedded stores, with the command service's sign-up and
// sign-in beside it on one origin, as `npm start` serves them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAuth, type OpenedAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { openSqliteEventStore } from '@eventide/shared/event-store/sqlite.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { createLogger, type Logger } from '@eventide/shared/log.ts';
import { jsonClient, listenOnLoopback, type JsonClient } from '@eventide/shared/testing/json-client.ts';
import { authDeps } from '@eventide/command-service/src/account/wire.ts';
import { commandRoutes } from '@eventide/command-service/src/routes.ts';
import { signUp, signUpAdmin, type SignedIn } from '@eventide/command-service/src/testing/sign-in.ts';
import { openCollab, type Collab } from '../src/wire.ts';
import { connectEditor, type EditorClient } from '../src/testing/editor-client.ts';
import { TEST_ENV } from '@eventide/shared/testing/test-env.ts';

export interface User extends SignedIn {
  http: JsonClient;
  editor(): Promise<EditorClient>;
}

export interface CollabApp {
  url: string;
  auth: OpenedAuth;
  collab: Collab;
  eventStore: EventStore;
  dir: string;
  newUser(): Promise<User>;
  newAdmin(): Promise<User>;
  close(): Promise<void>;
}

export async function startCollabApp(options: { env?: Record<string, string>; log?: Logger; checkEveryMs?: number; dir?: string } = {}): Promise<CollabApp> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'eventide-collab-'));
  const config = loadConfig({ DATA_DIR: dir, ...TEST_ENV, SQLITE_SYNCHRONOUS: 'NORMAL', ...options.env });
  const auth = await openAuth(config);
  const eventStore = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const log = options.log ?? createLogger({ level: 'silent' });
  const collab = await openCollab(config, { auth, log, ...(options.checkEveryMs ? { checkEveryMs: options.checkEveryMs } : {}) });
  const app = createHttpApp({
    log,
    auth,
    routers: [...commandRoutes({ store: eventStore, bodyLimit: 64 * 1024, auth: authDeps(config, auth) }), ...collab.routers],
  });
  const { server, url } = await listenOnLoopback(app);
  collab.attach(server);
  const asUser = (signedIn: SignedIn, http: JsonClient): User => ({ ...signedIn, http, editor: () => connectEditor(url, http.cookieHeader()) });
  return {
    url,
    auth,
    collab,
    eventStore,
    dir,
    async newUser() {
      const http = jsonClient(url);
      return asUser(await signUp(http), http);
    },
    async newAdmin() {
      const http = jsonClient(url);
      return asUser(await signUpAdmin(http, eventStore, auth.sessions.store), http);
    },
    async close() {
      await collab.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await eventStore.close();
      await auth.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
