// Every store written by an earlier release (fixtures/stores/, one per release that changed how
// events are written: command-service/test/write-store-fixture.ts) is read by this one: `npm start`
// on a copy of its event and key files builds its read models afresh and serves what the old
// release wrote, upcast to today's event versions, and every event leaves as today's envelope. The
// store is never rewritten to change a schema (docs/events.md#changing-an-event).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '@eventide/testing/sign-in.ts';
import type { FixtureFacts } from '@eventide/command-service/test/write-store-fixture.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { toEnvelope } from '@eventide/kernel/events/envelope.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { currentSchemaVersion } from '@eventide/kernel/events/versions.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { grantAdmin, startService, type RunningService } from './process.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/stores/', import.meta.url));
const releases = readdirSync(FIXTURES);

describe.each(releases)('the store written by release %s', (release) => {
  const facts = JSON.parse(readFileSync(join(FIXTURES, release, 'facts.json'), 'utf8')) as FixtureFacts;
  let dataDir: string;
  let service: RunningService;
  let admin: JsonClient;
  /** The position of the fixture's last event: reads wait until the read models hold it. */
  let head: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'eventide-fixture-read-'));
    for (const file of ['events.db', 'keys.db']) cpSync(join(FIXTURES, release, file), join(dataDir, file));
    const opened = await openEventStore(loadConfig({ DATA_DIR: dataDir }));
    head = await opened.store.head();
    await opened.store.close();
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    service = await startService(env);
    admin = jsonClient(service.url);
    const me = await signUp(admin);
    await grantAdmin(env, me.email);
    admin = jsonClient(service.url);
    const signedIn = await admin.request('POST', '/auth/sign-in', { email: me.email, password: me.password });
    if (signedIn.status !== 200) throw new Error(`admin sign-in: ${signedIn.status}`);
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A read once the read models, built afresh, hold all the fixture wrote. */
  const read = (path: string) => admin.request('GET', path, undefined, { 'Wait-For-Position': String(head) });

  it('reads every event as today’s version, and each leaves as today’s envelope', async () => {
    const opened = await openEventStore(loadConfig({ DATA_DIR: dataDir }));
    try {
      const events = await opened.store.readAll({ limit: 10_000 });
      const types = new Set(events.map((e) => e.type));
      // The fixture holds each of the nine, so that each is read here.
      expect([...EVENT_NAMES].filter((name) => !types.has(name))).toEqual([]);
      for (const event of events) {
        const envelope = toEnvelope(event);
        if (envelope) expect(envelope.schemaVersion, event.type).toBe(currentSchemaVersion(envelope.type));
      }
    } finally {
      await opened.store.close();
    }
  });

  it('serves its products, with what today’s versions add as not stated', async () => {
    const changed = await read(`/products/${facts.products.changed}`);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ price: { amount: 2799, currency: 'EUR' }, category: 'Kitchen', taxRate: null, version: 1 });
    expect((await read(`/products/${facts.products.untouched}`)).body).toMatchObject({ name: 'Mug', taxRate: null });
    expect([404, 410]).toContain((await read(`/products/${facts.products.deleted}`)).status);
    // And a change made today lands on top of what the old release wrote.
    const taxed = await admin.request('PATCH', `/products/${facts.products.untouched}`, { taxRate: 20 });
    expect(taxed.status, JSON.stringify(taxed.body)).toBe(200);
    expect(taxed.body).toMatchObject({ name: 'Mug', price: { amount: 450, currency: 'EUR' }, taxRate: 20, version: 1 });
  });

  it('serves its users, the erased one gone and nothing of them left', async () => {
    expect((await read(`/users/${facts.users.kept}`)).body).toMatchObject({ name: 'Ada', email: 'ada@example.test' });
    expect((await read(`/users/${facts.users.renamed}`)).body).toMatchObject({ name: 'Robert' });
    const erased = await read(`/users/${facts.users.erased}`);
    expect([404, 410]).toContain(erased.status);
    expect(JSON.stringify(erased.body)).not.toMatch(/Cyd|cyd@/);
  });

  it('serves its orders as they were left', async () => {
    const paid = await read(`/orders/${facts.orders.paid}`);
    expect(paid.body).toMatchObject({
      status: 'paid',
      userId: facts.users.kept,
      lines: [
        // Ordered after its price fell to 27.99.
        { productId: facts.products.changed, quantity: 2, unitPrice: { amount: 2799, currency: 'EUR' } },
        { productId: facts.products.untouched, quantity: 4, unitPrice: { amount: 450, currency: 'EUR' } },
      ],
    });
    expect([404, 410]).toContain((await read(`/orders/${facts.orders.deleted}`)).status);
  });
});
