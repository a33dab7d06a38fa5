// `npm run move-to-postgres` as a team would run it (docs/engines.md#moving-between-engines): a
// shop of 100,000 events seeded on the embedded default and used (a person, a document they
// edited, an admin), stopped, moved into an empty PostgreSQL, and started there on a data
// directory of its own. The copy is verified table by table; the read models are rebuilt from the
// events; and the API answers every read as it did before the move, the person signs in with the
// same password, the document holds the same text, and new writes go on after the moved positions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';
import { spawnInGroup } from '@eventide/testing/processes.ts';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { until } from '@eventide/testing/wait.ts';
import { grantAdmin, startService, type RunningService } from './process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EVENTS = 100_000;
/** A bound for what grows with the store (seeding, rebuilding 100,000 events on a busy machine), not a delay. */
const STORE_BOUND_MS = 900_000;

/** An npm script, as a user runs it; its exit code and everything it printed. */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawnInGroup('npm', ['run', '--silent', script, '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The reads compared before and after: public lists and search, one product, and what a person and an admin see. */
function readsOf(productId: string, userId: string): string[] {
  return [
    '/products?limit=20&page=1',
    '/products?limit=20&page=400',
    '/api/products?limit=7',
    '/search?q=ceramic',
    '/search?q=ceramic%20sal',
    '/search?q=ceramc',
    '/search?q=the%20of',
    `/products/${productId}`,
    `/products/${productId}/history`,
    `/users/${userId}`,
    '/orders?limit=20&page=3',
    '/orders?status=paid&limit=5&page=1',
    '/users?limit=10&page=2',
  ];
}

/** A reply as compared: its status and body; a cursor's signature is the secret's, which stays behind (docs/engines.md). */
async function answer(client: JsonClient, path: string, headers: Record<string, string> = {}) {
  const reply = await client.request('GET', path, undefined, headers);
  const body = JSON.parse(JSON.stringify(reply.body), (key, value) =>
    key === 'nextCursor' && typeof value === 'string' ? value.split('.')[0] : value,
  );
  return { status: reply.status, body };
}

const unavailable = postgresUnavailable();
if (unavailable) console.warn(`SKIPPED: npm run move-to-postgres: ${unavailable}`);

describe.skipIf(unavailable)('npm run move-to-postgres', { timeout: STORE_BOUND_MS }, () => {
  const embedded = mkdtempSync(join(tmpdir(), 'eventide-move-'));
  const moved = mkdtempSync(join(tmpdir(), 'eventide-moved-'));
  let postgres: TestPostgres;
  let url: string;
  let app: RunningService | undefined;
  afterAll(async () => {
    await app?.stop();
    await postgres?.remove();
    for (const dir of [embedded, moved]) rmSync(dir, { recursive: true, force: true });
  });

  const person = { name: 'Mover', email: 'mover@example.com', password: 'a long passphrase to move' };
  let before: Array<{ status: number; body: unknown }>;
  let reads: string[];
  let documentId: string;
  let head: number;
  let webhookId: string;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.database();
    const seeded = await npmRun('seed', ['--events', String(EVENTS)], { DATA_DIR: embedded });
    expect(seeded.code, seeded.output).toBe(0);

    app = await startService({ DATA_DIR: embedded });
    const client = jsonClient(app.url);
    const me = await signUp(client, person);
    await grantAdmin({ DATA_DIR: embedded }, person.email);
    await signInWithPassword(client, person.email, person.password);
    const created = await client.request('POST', '/collab/documents', { title: 'Moving notes' });
    expect(created.status).toBe(201);
    documentId = created.body.id;
    const editor = await connectEditor(app.url, client.cookieHeader());
    try {
      await submit(await openText(editor.doc(documentId)), [{ insert: 'written before the move' }]);
    } finally {
      editor.close();
    }
    // A webhook endpoint, paused: it moves with its secret and its state, and is sent nothing here.
    const hook = await client.request('POST', '/admin/webhooks', {
      url: 'https://[2606:4700:4700::1111]/moved',
      events: ['order:created'],
    });
    expect((await client.request('PATCH', `/admin/webhooks/${hook.body.webhookId}`, { enabled: false })).status).toBe(200);
    webhookId = hook.body.webhookId;
    const renamed = await client.request('PATCH', `/users/${me.userId}`, { name: 'Mover Renamed' });
    head = Number(renamed.headers.get('event-position'));
    const product = (await client.request('GET', '/products?limit=1&page=1', undefined, { 'Wait-For-Position': String(head) })).body
      .items[0].productId;
    reads = readsOf(product, me.userId);
    before = [];
    for (const path of reads) before.push(await answer(client, path, { 'Wait-For-Position': String(head) }));
    await app.stop();
    app = undefined;
  }, STORE_BOUND_MS);

  it('copies the stores and finds every table the same on both sides', async () => {
    const { code, output } = await npmRun('move-to-postgres', [], { DATA_DIR: embedded, DATABASE_URL: url });
    expect(code, output).toBe(0);
    for (const table of [
      'events',
      'subject_keys',
      'key_store_secrets',
      'sharedb_snapshots',
      'sharedb_ops',
      'collab_members',
      'follower_checkpoints',
      'deadlines',
      'webhook_endpoints',
    ]) {
      expect(output).toMatch(new RegExp(`same {2}${table}: [1-9][\\d,]* rows`));
    }
    expect(output).not.toMatch(/DIFFERENT/);

    // A second move into the same database is refused: it holds data now.
    const again = await npmRun('move-to-postgres', [], { DATA_DIR: embedded, DATABASE_URL: url });
    expect(again.code).toBe(2);
    expect(again.output).toMatch(/refused: the database already holds events/);
  });

  it('answers the same on PostgreSQL once the read models are rebuilt there', async () => {
    app = await startService({ DATA_DIR: moved, DATABASE_URL: url });
    const client = jsonClient(app.url);
    // Sessions stay behind: the same password signs the person in again.
    await signInWithPassword(client, person.email, person.password);
    await until(
      async () => (await client.request('GET', '/products?limit=1', undefined, { 'Wait-For-Position': String(head) })).status === 200,
      `the read models rebuilt on PostgreSQL up to position ${head}`,
      STORE_BOUND_MS,
    );
    const after: Array<{ status: number; body: unknown }> = [];
    for (const path of reads) after.push(await answer(client, path));
    expect(Object.fromEntries(reads.map((path, i) => [path, after[i]]))).toEqual(
      Object.fromEntries(reads.map((path, i) => [path, before[i]])),
    );
    expect(before.every((reply) => reply.status === 200)).toBe(true);
    // What was compared holds something: products found, orders of the seed's customers, the person.
    const bodyBefore = (path: string) => before[reads.indexOf(path)]!.body as { items?: unknown[]; total?: number; name?: string };
    expect(bodyBefore('/search?q=ceramic').items!.length).toBeGreaterThan(0);
    expect(bodyBefore('/orders?limit=20&page=3').total).toBeGreaterThan(60);
    expect(bodyBefore(reads.find((path) => path.startsWith('/users/'))!).name).toBe('Mover Renamed');

    const editor = await connectEditor(app.url, client.cookieHeader());
    try {
      const doc = await openText(editor.doc(documentId));
      expect(textOf(doc)).toBe('written before the move');
      await submit(doc, [{ retain: 23 }, { insert: ', and after it' }]);
      expect(textOf(doc)).toBe('written before the move, and after it');
    } finally {
      editor.close();
    }

    // The webhook endpoint moved as it was; the deadlines the seed's placed orders have, too.
    expect((await client.request('GET', `/admin/webhooks/${webhookId}`)).body).toMatchObject({
      enabled: false,
      url: 'https://[2606:4700:4700::1111]/moved',
    });
    expect((await client.request('GET', '/admin/deadlines')).body.total).toBeGreaterThan(0);

    // New events go on after the moved ones.
    const written = await client.request('POST', '/products', { name: 'After the move', price: { amount: 100, currency: 'EUR' } });
    expect(written.status).toBe(201);
    expect(Number(written.headers.get('event-position'))).toBeGreaterThan(head);
  });
});
