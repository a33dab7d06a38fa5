// Starts the command service in-process on an ephemeral port over a fresh embedded store, and
// gives tests a small JSON client for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '@eventide/shared/event-store/sqlite.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import { createHttpApp } from '@eventide/shared/http/app.ts';
import { createLogger } from '@eventide/shared/log.ts';
import { jsonClient, listenOnLoopback, type Reply } from '@eventide/shared/testing/json-client.ts';
import { commandRoutes } from '../src/routes.ts';

export type { Reply } from '@eventide/shared/testing/json-client.ts';

export interface TestApp {
  url: string;
  store: EventStore;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends a body exactly as given, for malformed input. */
  raw(method: string, path: string, body: string, headers: Record<string, string>): Promise<Reply>;
  /** How many events the store holds: bad input must leave it unchanged. */
  eventCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startTestApp(options: { bodyLimit?: number } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-http-'));
  const store = openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const log = createLogger({ level: 'silent' });
  const app = createHttpApp({ log, routers: commandRoutes({ store, bodyLimit: options.bodyLimit ?? 64 * 1024 }) });
  const { server, url } = await listenOnLoopback(app);

  const client = jsonClient(url);
  return {
    url,
    store,
    request: client.request,
    raw: (method, path, body, headers) => client.raw(method, path, body, headers),
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
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
