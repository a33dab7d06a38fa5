// The subscriber SDK without Kafka: server-sent events from the query service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { createSubscriber } from '@eventide/sdk/subscriber.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { runCli } from './process.ts';
import { EVENT_NAMES } from '@eventide/kernel/events/catalogue.ts';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { openStream } from '@eventide/testing/sse-stream.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const log = createLogger({ level: 'silent' });
let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

function memoryCheckpoint(start = 0) {
  let position = start;
  return {
    load: async () => position,
    save: async (p: number) => {
      position = p;
    },
    get: () => position,
  };
}

const product = (name: string) => app.write('POST', '/products', { name, price: { amount: 1, currency: 'EUR' } });

describe('subscriber over server-sent events', () => {
  it('delivers a write to the handler, typed and checked', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber({
      http: { url: app.url, credentials: { email: app.admin.email, password: app.admin.password } },
      log,
    }).on('product:created', (e) => void seen.push(e.data.name));
    await subscriber.start();
    await product('Streamed kettle');
    await until(() => seen.includes('Streamed kettle'), 'the handler to see the product');
    await subscriber.stop();
  });

  it("starts at what happens from now on with from: 'now', and keeps its place from there", async () => {
    await product('Before now');
    const seen: string[] = [];
    const checkpoint = memoryCheckpoint();
    const credentials = { email: app.admin.email, password: app.admin.password };
    const subscriber = createSubscriber({ http: { url: app.url, credentials, from: 'now', checkpoint }, log }).on(
      'product:created',
      (e) => void seen.push(e.data.name),
    );
    await subscriber.start();
    await product('After now');
    await until(() => seen.includes('After now'), 'the handler to see the new product');
    expect(seen).toEqual(['After now']);
    expect(checkpoint.get()).toBeGreaterThan(0);
    await subscriber.stop();
  });

  it('resumes after the last event it handled: stopped after event k, the next is k+1', async () => {
    const checkpoint = memoryCheckpoint(await app.eventStore.head());
    const names = Array.from({ length: 6 }, (_, i) => `Resume ${i}`);
    const first: string[] = [];
    const one = createSubscriber({ http: { url: app.url, checkpoint, headers: { cookie: app.cookieHeader() } }, log }).on(
      'product:created',
      (e) => void first.push(e.data.name),
    );
    await one.start();
    for (const name of names.slice(0, 3)) await product(name);
    await until(() => first.length === 3, 'the first three');
    await one.stop();
    for (const name of names.slice(3)) await product(name);
    const second: string[] = [];
    const two = createSubscriber({ http: { url: app.url, checkpoint, headers: { cookie: app.cookieHeader() } }, log }).on(
      'product:created',
      (e) => void second.push(e.data.name),
    );
    await two.start();
    await until(() => second.length === 3, 'the rest');
    await two.stop();
    expect(first).toEqual(names.slice(0, 3));
    expect(second).toEqual(names.slice(3));
  });

  it('loses nothing and repeats nothing when the connection drops', async () => {
    const checkpoint = memoryCheckpoint(await app.eventStore.head());
    const seen: string[] = [];
    const subscriber = createSubscriber({ http: { url: app.url, checkpoint, headers: { cookie: app.cookieHeader() } }, log }).on(
      'product:created',
      (e) => void seen.push(e.data.name),
    );
    await subscriber.start();
    const names = Array.from({ length: 20 }, (_, i) => `Drop ${i}`);
    for (const [i, name] of names.entries()) {
      // Dropping connections may cut this client's own request too: retry it, safely.
      const key = { 'Idempotency-Key': `drop-${Date.now()}-${i}` };
      for (let attempt = 0; ; attempt++) {
        try {
          expect((await app.request('POST', '/products', { name, price: { amount: 1, currency: 'EUR' } }, key)).status).toBe(201);
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
      if (i % 5 === 4) app.dropConnections();
    }
    await until(() => seen.length >= names.length, 'every product');
    await subscriber.stop();
    expect(seen).toEqual(names);
  });

  it("keeps its dead letters in a file its operator lists, retries once fixed, and skips with the SDK's command", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-dead-letters-'));
    const file = join(dir, 'dead-letters.jsonl');
    try {
      let fixed = false;
      const handled: string[] = [];
      const subscriber = createSubscriber({
        http: { url: app.url, from: 'now', credentials: { email: app.admin.email, password: app.admin.password } },
        log,
        dedupe: true,
        retry: { attempts: 2, initialDelayMs: 5, maxDelayMs: 10 },
        deadLetterFile: file,
      }).on('product:created', (e) => {
        if (e.data.name.startsWith('Broken') && !fixed) throw new Error('the mailer is down');
        handled.push(e.data.name);
      });
      await subscriber.start();
      await product('Broken 1');
      await product('Broken 2');
      await product('Fine 1');
      await until(() => handled.includes('Fine 1'), 'the others to flow');
      const command = (...args: string[]) => runCli('packages/sdk/src/dead-letters-cli.ts', [...args, '--file', file, '--by', 'ops'], {});
      let open: Array<{ id: string; eventType: string; attempts: number; reason: string }> = [];
      await until(async () => {
        open = JSON.parse((await command('list', '--json')).output);
        return open.length === 2;
      }, 'two dead letters in the file');
      expect(open).toMatchObject([
        { eventType: 'product:created', attempts: 2, reason: expect.stringContaining('the mailer is down') },
        { eventType: 'product:created', attempts: 2 },
      ]);
      fixed = true;
      expect((await command('retry', open[0]!.id)).output).toContain('asked to retry 1');
      // Handled again by the running subscriber, though it had seen it (dedupe): its operator asked.
      await until(() => handled.includes('Broken 1'), 'the retried dead letter handled');
      expect((await command('skip', open[1]!.id, '--reason', 'a test product')).output).toContain('skipped 1');
      expect((await command('list')).output).toContain(`no open dead letters in ${file}`);
      const all = (await command('list', '--all')).output;
      expect(all).toMatch(/retried by ops \(handled\)/);
      expect(all).toMatch(/skipped by ops: a test product/);
      expect(handled).not.toContain('Broken 2');
      await subscriber.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends each of the nine events as /asyncapi.json describes them on GET /events', async () => {
    const after = await app.eventStore.head();
    // One of each: a customer signs up, renames herself, orders, changes and deletes the draft, and leaves; a product comes and goes.
    const customer = await signedInUser(app.url);
    const kettle = (await product('Described kettle')).body.productId;
    await customer.request('PATCH', `/users/${customer.userId}`, { name: 'Renamed' });
    const order = (await customer.request('POST', '/orders', { userId: customer.userId, lines: [{ productId: kettle, quantity: 1 }] }))
      .body;
    await customer.request('PATCH', `/orders/${order.orderId}`, { lines: [{ productId: kettle, quantity: 2 }] });
    await customer.request('DELETE', `/orders/${order.orderId}`);
    await app.write('PATCH', `/products/${kettle}`, { name: 'Described kettle, renamed' });
    await app.write('DELETE', `/products/${kettle}`);
    const last = (await customer.request('DELETE', `/users/${customer.userId}`)).headers.get('event-position')!;
    // Each message is checked against the document as it arrives (openStream).
    const stream = await openStream(app.url, `/events?after=${after}`, { cookie: app.cookieHeader() });
    const sent = await stream.until((message) => Number(message.id) >= Number(last));
    stream.close();
    expect(new Set(sent.map((message) => message.event))).toEqual(new Set(EVENT_NAMES));
  });

  it('refuses an unknown event name in the stream request', async () => {
    const reply = await app.request('GET', '/events?types=user:exploded');
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].field).toBe('types');
  });
});
