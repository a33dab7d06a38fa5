// Starts the command service in-process on an ephemeral port over a fresh embedded store, with
// sessions, and gives tests JSON clients for it: `request` and `raw` act as a signed-in admin
// (who may do anything), `anonymous()` gives a client with no session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import type { OpenedAuth } from '@eventide/platform/auth/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { jsonClient, listenOnLoopback, type JsonClient, type Reply } from '@eventide/testing/json-client.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { httpAppOf } from '@eventide/runtime/http.ts';
import { commandService } from '../src/service.ts';
import type { SignedIn } from '@eventide/testing/sign-in.ts';
import { signUpAdmin } from '../src/testing/admin.ts';

export type { Reply } from '@eventide/testing/json-client.ts';

export interface TestApp {
  url: string;
  store: EventStore;
  auth: OpenedAuth;
  admin: SignedIn;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends a body exactly as given, for malformed input. */
  raw(method: string, path: string, body: string, headers: Record<string, string>): Promise<Reply>;
  /** A client with no session. */
  anonymous(): JsonClient;
  /** How many events the store holds: bad input must leave it unchanged. */
  eventCount(): Promise<number>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  bodyLimit?: number;
  env?: Record<string, string>;
  clock?: () => number;
  /** Replaces the password hasher, e.g. with one that holds hashes until the test lets them go. */
  hasher?: PasswordHasher;
  /** Where the stores are, kept after close (a fresh temporary directory, removed on close, otherwise). */
  dataDir?: string;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'eventide-http-'));
  const env = {
    DATA_DIR: dir,
    ...TEST_ENV,
    SQLITE_SYNCHRONOUS: 'NORMAL',
    // No payment deadlines: the tests here count the events a request wrote (eventCount), and a
    // deadline's own events are written beside them, by a follower, at a time of its own.
    PAYMENT_WINDOW_SECONDS: '0',
    ...(options.bodyLimit ? { BODY_LIMIT: String(options.bodyLimit) } : {}),
  };
  const config = loadConfig({ ...env, ...options.env });
  const log = createLogger({ level: 'silent' });
  const composition = await compose(
    { config, log, auth: options.clock ? { clock: options.clock } : {} },
    { command: commandService(options.hasher ? { hasher: options.hasher } : {}) },
  );
  const { store, auth } = composition.services.command;
  const { server, url } = await listenOnLoopback(httpAppOf(composition, log));

  const client = jsonClient(url);
  const admin = await signUpAdmin(client, store, auth.sessions.store);
  return {
    url,
    store,
    auth,
    admin,
    request: client.request,
    raw: (method, path, body, headers) => client.raw(method, path, body, headers),
    anonymous: () => jsonClient(url),
    async eventCount() {
      let count = 0;
      let after = 0;
      for (;;) {
        const page = await store.readAll({ after, limit: 1000 });
        if (page.length === 0) return count;
        count += page.length;
        after = page[page.length - 1]!.position;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await composition.close();
      if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
