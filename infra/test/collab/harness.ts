// The collab service in-process on the embedded stores, with the command service's sign-up and
// sign-in beside it on one origin, as `npm start` serves them. It lives in infra because it
// puts two services together; the collab service's own tests need neither.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { createLogger, type Logger } from '@eventide/kernel/log.ts';
import { jsonClient, listenOnLoopback, type JsonClient } from '@eventide/testing/json-client.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { httpAppOf } from '@eventide/runtime/http.ts';
import { commandService } from '@eventide/command-service/src/service.ts';
import { signUp, type SignedIn } from '@eventide/testing/sign-in.ts';
import { signUpAdmin } from '@eventide/command-service/src/testing/admin.ts';
import { collabService } from '@eventide/collab-service/src/service.ts';
import type { Collab } from '@eventide/collab-service/src/wire.ts';
import type { SupervisedCollab } from '@eventide/collab-service/src/supervised.ts';
import { connectEditor, type EditorClient } from '@eventide/testing/collab/editor-client.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import type { Metrics } from '@eventide/platform/metrics/metrics.ts';

export interface User extends SignedIn {
  http: JsonClient;
  editor(): Promise<EditorClient>;
}

export interface CollabApp {
  url: string;
  auth: OpenedAuth;
  /** The collab part running when it started. */
  collab: Collab;
  /** Its supervisor, which starts it again when it dies. */
  supervised: SupervisedCollab;
  eventStore: EventStore;
  /** The process's metrics registry, as GET /metrics would serve it. */
  metrics: Metrics;
  dir: string;
  newUser(): Promise<User>;
  newAdmin(): Promise<User>;
  close(): Promise<void>;
}

export async function startCollabApp(
  options: { env?: Record<string, string>; log?: Logger; checkEveryMs?: number; dir?: string } = {},
): Promise<CollabApp> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'eventide-collab-'));
  const config = loadConfig({ DATA_DIR: dir, ...TEST_ENV, SQLITE_SYNCHRONOUS: 'NORMAL', ...options.env });
  const log = options.log ?? createLogger({ level: 'silent' });
  const composition = await compose(
    { config, log },
    { command: commandService(), collab: collabService(options.checkEveryMs ? { checkEveryMs: options.checkEveryMs } : {}) },
  );
  const { store: eventStore, auth } = composition.services.command;
  const supervised = composition.services.collab.collab;
  const collab = supervised.current()!;
  const { server, url } = await listenOnLoopback(httpAppOf(composition, log));
  composition.attach(server);
  const asUser = (signedIn: SignedIn, http: JsonClient): User => ({
    ...signedIn,
    http,
    editor: () => connectEditor(url, http.cookieHeader()),
  });
  return {
    url,
    auth,
    metrics: composition.platform.metrics,
    collab,
    supervised,
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
      await composition.disconnect();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await composition.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
