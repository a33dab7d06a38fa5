// A failure of the collab store reaches the editor only as ERR_UNAVAILABLE: the driver's message,
// which names tables, files or hosts, goes to the log alone.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { until } from '@eventide/testing/wait.ts';
import { rawClient } from '@eventide/testing/collab/raw-client.ts';
import { startCollabApp, type CollabApp } from './harness.ts';

const captured = capturedLog('info');
let app: CollabApp;

beforeAll(async () => {
  app = await startCollabApp({ log: captured.log });
});
afterAll(async () => {
  await app.close();
});

it("answers a request the store fails as ERR_UNAVAILABLE, and logs the store's own error", async () => {
  const user = await app.newUser();
  const client = await rawClient(app.url, user.http.cookieHeader());
  try {
    // The store breaks under the service: its snapshots' table is gone.
    const db = new DatabaseSync(join(app.dir, 'collab.db'));
    db.exec('ALTER TABLE sharedb_snapshots RENAME TO sharedb_snapshots_elsewhere');
    db.close();

    client.send({ a: 'f', c: 'documents', d: 'notes' });
    const reply = await client.reply((m) => m.a === 'f' && m.error !== undefined, 'the fetch to fail');
    expect(reply.error).toEqual({
      code: 'ERR_UNAVAILABLE',
      message: 'the document could not be read or saved just now; try again shortly',
    });
    expect(JSON.stringify(client.inbox)).not.toMatch(/sharedb_|table|sqlite/i);

    await until(
      () =>
        captured.lines.some((line) => String((line.storeError as { message?: unknown } | undefined)?.message).includes('no such table')),
      "the store's error in the log",
      10_000,
    );
  } finally {
    client.socket.close();
  }
});
