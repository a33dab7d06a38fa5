// Issue 59: a part of `npm start`'s process that dies is started again while the rest serves. Under
// load (writes, reads, an editor typing), the followers' thread is killed (worker.terminate) and
// then the collab part (its store closed under it): each comes back on its own, readiness says
// what is down meanwhile, every other request is answered throughout, and nothing acknowledged
// is lost: every product written is read back, every op acknowledged is in the document.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@eventide/kernel/config.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { compose } from '@eventide/runtime/compose.ts';
import { httpAppOf } from '@eventide/runtime/http.ts';
import { jsonClient, listenOnLoopback, type JsonClient } from '@eventide/testing/json-client.ts';
import { commandService } from '@eventide/command-service/src/service.ts';
import { signUpAdmin } from '@eventide/command-service/src/testing/admin.ts';
import { queryService } from '@eventide/query-service/src/service.ts';
import { projectorOnThread } from '@eventide/projector/src/thread.ts';
import { collabService } from '@eventide/collab-service/src/service.ts';
import { connectEditor, openText, submit, textOf, type EditorClient } from '@eventide/testing/collab/editor-client.ts';
import { TEST_ENV } from '@eventide/testing/test-env.ts';
import { until } from '@eventide/testing/wait.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-parts-'));
let composition: Awaited<ReturnType<typeof start>>;
let url: string;
let admin: JsonClient;
let closeServer: () => Promise<void>;

function start() {
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dir, SQLITE_SYNCHRONOUS: 'NORMAL' });
  return compose(
    { config, log: createLogger({ level: 'silent' }) },
    { command: commandService(), projector: projectorOnThread('test'), query: queryService(), collab: collabService() },
  );
}

beforeAll(async () => {
  composition = await start();
  const { server, url: listening } = await listenOnLoopback(httpAppOf(composition, createLogger({ level: 'silent' })));
  composition.attach(server);
  url = listening;
  closeServer = async () => {
    await composition.disconnect();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  admin = jsonClient(url);
  await signUpAdmin(admin, composition.services.command.store, composition.services.command.auth.sessions.store);
});
afterAll(async () => {
  await closeServer?.();
  await composition?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes and reads in a loop until stopped: what they were answered, and the products acknowledged. */
function load() {
  const statuses = new Map<string, number>();
  const written: string[] = [];
  let going = true;
  const count = (what: string, status: number) => statuses.set(`${what} ${status}`, (statuses.get(`${what} ${status}`) ?? 0) + 1);
  const running = (async () => {
    for (let i = 0; going; i++) {
      const created = await admin.request('POST', '/products', { name: `Loaded ${i}`, price: { amount: 100 + i, currency: 'EUR' } });
      count('POST /products', created.status);
      if (created.status === 201) written.push(created.body.productId);
      count('GET /products', (await admin.request('GET', '/products?limit=5')).status);
      count('GET /auth/session', (await admin.request('GET', '/auth/session')).status);
    }
  })();
  return {
    statuses,
    written,
    async stop() {
      going = false;
      await running;
    },
  };
}

/** An editor typing its own words into a document until stopped: the words acknowledged. */
async function typing(doc: string) {
  const editor: EditorClient = await connectEditor(url, admin.cookieHeader());
  const text = await openText(editor.doc(doc));
  // Its ops fail once the part dies under it (ERR_UNAVAILABLE, then the connection closes): expected here.
  text.on('error', () => undefined);
  const acknowledged: string[] = [];
  let going = true;
  void (async () => {
    for (let i = 0; going; i++) {
      try {
        await submit(text, [{ insert: `<${i}>` }]);
        acknowledged.push(`<${i}>`);
      } catch {
        return;
      }
    }
  })();
  return {
    acknowledged,
    /** An op in flight when the connection closed never settles: the loop is left, not awaited. */
    stop() {
      going = false;
      editor.close();
    },
  };
}

const ready = async () => (await admin.request('GET', '/health/ready')).body;

describe('parts of the process that die', () => {
  it('start again on their own while every other request is answered, and lose nothing acknowledged', async () => {
    const traffic = load();
    const editor = await typing('kept');
    await until(() => traffic.written.length >= 20 && editor.acknowledged.length >= 20, 'the load under way');

    // The followers' thread dies.
    const followers = composition.services.projector.thread()!;
    await followers.kill();
    await until(async () => (await ready()).checks.followers?.status === 'fail', 'readiness to say the followers are down');
    await until(() => followers.restarts === 1 && !('down' in followers.state()), "the followers' thread running again", 60_000);

    // The collab part dies: its store closed under it. Its routes say so, with when to come back.
    const collab = composition.services.collab.collab;
    const typedBefore = editor.acknowledged.length;
    await collab.current()!.kill();
    const documents: Array<[number, string | null]> = [];
    await until(
      async () => {
        const answer = await admin.request('GET', '/collab/documents');
        documents.push([answer.status, answer.headers.get('retry-after')]);
        return collab.restarts === 1 && collab.down() === undefined;
      },
      'collaborative editing running again',
      60_000,
    );
    expect(documents).toContainEqual([503, '2']);
    expect(documents.filter(([status]) => status !== 200 && status !== 503)).toEqual([]);
    editor.stop();

    const written = traffic.written.length;
    await until(() => traffic.written.length >= written + 20, 'more writes after both came back');
    await traffic.stop();

    // Every other request was answered as ever, throughout.
    expect([...traffic.statuses.keys()].sort()).toEqual(['GET /auth/session 200', 'GET /products 200', 'POST /products 201']);
    expect(typedBefore).toBeGreaterThan(0);
    // Every product acknowledged is read back, projected by the thread started again.
    const last = traffic.written.at(-1)!;
    await until(async () => (await admin.request('GET', `/products/${last}`)).status === 200, 'the last product projected');
    for (const productId of traffic.written) expect((await admin.request('GET', `/products/${productId}`)).status).toBe(200);
    // Every op acknowledged is in the document, read from the collab part started again.
    const reader = await connectEditor(url, admin.cookieHeader());
    const doc = await openText(reader.doc('kept'));
    for (const word of editor.acknowledged) expect(textOf(doc)).toContain(word);
    reader.close();
    await until(async () => (await ready()).status === 'pass', 'readiness back');
  }, 180_000);
});
