// Webhooks end to end (docs/webhooks.md), to a receiver on loopback (allowed by this test's
// WEBHOOK_ALLOWED_RANGES), verified with the standardwebhooks library as a receiver would:
// signatures, a retry after a 500 with the same webhook-id, each entity's order over 100 events
// with failures on the way, rotation with an overlap, redelivery, nothing personal in what is
// sent, disabling after a day of failures, and refusals (a private address, the bound).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '@eventide/kernel/clock.ts';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { webhookReceiver } from '@eventide/sdk';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from './full-app.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A receiver that records every request and answers what the test says. */
function receiver() {
  const received: Received[] = [];
  let answer: (body: string) => number = () => 204;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const status = answer(body);
      received.push({ headers: request.headers, body, answered: status });
      response.writeHead(status).end(status >= 500 ? 'not now' : '');
    });
  });
  return {
    received,
    answerWith(next: (body: string) => number) {
      answer = next;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const verifies = (secret: string, r: Received) => {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};
/**
 * Whether one of the request's signatures is the secret's, for the time it says it was signed: the
 * tests move the sender's clock ahead of a receiver's, whose window check `verifies` makes too.
 */
const signedWith = (secret: string, r: Received) => {
  const at = new Date(Number(r.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(String(r.headers['webhook-id']), at, r.body);
  return String(r.headers['webhook-signature']).split(' ').includes(expected);
};
const eventOf = (r: Received) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, any> };

describe('webhooks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-webhooks-'));
  const clockFile = join(dir, 'clock');
  const hooks = receiver();
  let offset = 0;
  let app: FullApp;
  let url: string;

  /** Moves every clock that reads the file (the app's senders) forward. */
  const moveClock = (ms: number) => {
    offset += ms;
    setClockOffset(clockFile, offset);
  };

  beforeAll(async () => {
    url = await hooks.start();
    app = await startFullApp({
      env: {
        TEST_CLOCK_FILE: clockFile,
        WEBHOOK_ALLOWED_RANGES: '127.0.0.0/8',
        WEBHOOK_MAX_ENDPOINTS: '3',
        WEBHOOK_SECRET_OVERLAP_SECONDS: '3600',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await hooks.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function register(events: string[]): Promise<{ webhookId: string; secret: string }> {
    const reply = await app.request('POST', '/admin/webhooks', { url, events, description: 'the test receiver' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body;
  }

  it('refuses a private address, plain http to the internet, and names the field', async () => {
    for (const refused of [
      'http://10.0.0.1/hooks',
      'https://192.168.1.10/hooks',
      'https://169.254.169.254/latest',
      'http://93.184.216.34/hooks',
    ]) {
      const reply = await app.request('POST', '/admin/webhooks', { url: refused, events: ['order:created'] });
      expect(reply.status, refused).toBe(422);
      expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(reply.body.errors[0].field).toBe('url');
    }
    const customer = await signedInUser(app.url);
    expect((await customer.request('POST', '/admin/webhooks', { url, events: ['order:created'] })).status).toBe(403);
    expect((await app.request('POST', '/admin/webhooks', { url, events: ['order:shipped'] })).status).toBe(400);
  });

  it('delivers signed events, retries after a 500 with the same webhook-id, and sends nothing personal', async () => {
    const { webhookId, secret } = await register(['product:created', 'product:updated', 'user:created']);
    expect(secret).toMatch(/^whsec_/);
    hooks.answerWith(() => 500);
    const product = await app.write('POST', '/products', { name: 'Signed kettle', price: { amount: 900, currency: 'EUR' } });
    await until(() => hooks.received.some((r) => r.body.includes('Signed kettle')), 'the first attempt');
    hooks.answerWith(() => 204);
    const deliveries = await app.request('GET', `/admin/webhooks/${webhookId}/deliveries`);
    expect(deliveries.body.items[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'answered 500: not now' });
    moveClock(6_000);
    await until(() => hooks.received.filter((r) => r.body.includes('Signed kettle')).length === 2, 'the retry');
    const [first, retry] = hooks.received.filter((r) => r.body.includes('Signed kettle'));
    expect(first!.headers['webhook-id']).toBe(retry!.headers['webhook-id']);
    expect(verifies(secret, retry!)).toBe(true);
    expect(verifies(`whsec_${Buffer.alloc(32).toString('base64')}`, retry!)).toBe(false);
    expect(eventOf(retry!)).toMatchObject({ type: 'product:created', data: { streamId: `product-${product.body.productId}` } });
    // The SDK's receiver: verified and handled once; the same delivery again is a duplicate; a changed body is refused.
    const sdk = webhookReceiver({ secrets: [secret] });
    const handled = await sdk.receive(retry!.body, retry!.headers);
    expect(handled).toMatchObject({ outcome: 'handle', delivery: { type: 'product:created' } });
    expect(await sdk.receive(retry!.body, retry!.headers)).toMatchObject({ outcome: 'duplicate' });
    expect(await sdk.receive(retry!.body.replace('Signed', 'Forged'), retry!.headers)).toMatchObject({ outcome: 'refused' });
    await until(
      async () => (await app.request('GET', `/admin/webhooks/${webhookId}/deliveries`)).body.items[0].status === 'delivered',
      'recorded as delivered',
    );

    // A person's fields are left out: the receiver has no key, and sees no address.
    const person = await signedInUser(app.url);
    await until(
      () => hooks.received.some((r) => eventOf(r).type === 'user:created' && eventOf(r).data.data.userId === person.userId),
      'the sign-up',
    );
    const signUp = hooks.received.find((r) => eventOf(r).type === 'user:created' && eventOf(r).data.data.userId === person.userId)!;
    expect(signUp.body).not.toContain(person.email);
    expect(eventOf(signUp).data.data).toMatchObject({ email: null, name: null });
    await app.request('DELETE', `/admin/webhooks/${webhookId}`);
  });

  it("keeps each entity's order over 100 events, through failures", async () => {
    const { webhookId } = await register(['product:updated']);
    const kettle = (await app.write('POST', '/products', { name: 'Kettle 0', price: { amount: 100, currency: 'EUR' } })).body.productId;
    const pot = (await app.write('POST', '/products', { name: 'Pot 0', price: { amount: 100, currency: 'EUR' } })).body.productId;
    const firstTries = new Set<string>();
    // Every seventh delivery fails on its first attempt, and is retried while the later ones of its entity wait.
    let count = 0;
    hooks.answerWith((body) => {
      const id = (JSON.parse(body) as { data: { id: string } }).data.id;
      if (firstTries.has(id) || ++count % 7 !== 0) return 204;
      firstTries.add(id);
      return 500;
    });
    for (let i = 1; i <= 100; i++) {
      await Promise.all([
        app.request('PATCH', `/products/${kettle}`, { name: `Kettle ${i}` }),
        app.request('PATCH', `/products/${pot}`, { name: `Pot ${i}` }),
      ]);
    }
    const delivered = (productId: string) =>
      hooks.received
        .filter((r) => r.answered < 300 && eventOf(r).data.streamId === `product-${productId}`)
        .map((r) => eventOf(r).data.revision);
    await until(
      () => {
        moveClock(10_000);
        return delivered(kettle).length === 100 && delivered(pot).length === 100;
      },
      () => `every update delivered; kettle ${delivered(kettle).length}, pot ${delivered(pot).length}`,
    );
    const inOrder = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(delivered(kettle)).toEqual(inOrder);
    expect(delivered(pot)).toEqual(inOrder);
    expect(firstTries.size).toBeGreaterThan(10);
    await app.request('DELETE', `/admin/webhooks/${webhookId}`);
  });

  it('rotates the secret with an overlap, and redelivers a delivery with its webhook-id', async () => {
    hooks.answerWith(() => 204);
    const { webhookId, secret: old } = await register(['product:created']);
    const rotated = await app.request('POST', `/admin/webhooks/${webhookId}/secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.previousSecretUntil).not.toBeNull();
    await app.write('POST', '/products', { name: 'Rotated kettle', price: { amount: 100, currency: 'EUR' } });
    await until(() => hooks.received.some((r) => r.body.includes('Rotated kettle')), 'the delivery after rotation');
    const during = hooks.received.find((r) => r.body.includes('Rotated kettle'))!;
    expect([signedWith(old, during), signedWith(fresh, during)]).toEqual([true, true]);

    // Past the overlap only the new secret signs; a redelivery is the same message, signed anew.
    moveClock(3_601_000);
    const [delivery] = (await app.request('GET', `/admin/webhooks/${webhookId}/deliveries`)).body.items;
    const again = await app.request('POST', `/admin/webhooks/${webhookId}/deliveries/${delivery.deliveryId}/redeliver`);
    expect(again.status).toBe(202);
    await until(() => hooks.received.filter((r) => r.body.includes('Rotated kettle')).length === 2, 'the redelivery');
    const redelivered = hooks.received.filter((r) => r.body.includes('Rotated kettle'))[1]!;
    expect(redelivered.headers['webhook-id']).toBe(during.headers['webhook-id']);
    expect([signedWith(old, redelivered), signedWith(fresh, redelivered)]).toEqual([false, true]);
    expect(String(redelivered.headers['webhook-signature']).split(' ')).toHaveLength(1);
    await app.request('DELETE', `/admin/webhooks/${webhookId}`);
  });

  it('keeps delivering to other endpoints while one receiver holds its deliveries unanswered', async () => {
    hooks.answerWith(() => 204);
    // A receiver that takes every request and answers none until the test lets it.
    const held: Array<{ closed: boolean; answer: () => void }> = [];
    const slow = createServer((request, response) => {
      const entry = { closed: false, answer: () => response.writeHead(204).end() };
      // Closed before it was answered: the sender gave up on it (its timeout).
      response.on('close', () => (entry.closed = !response.writableFinished));
      request.resume();
      held.push(entry);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
    const stuck = await app.request('POST', '/admin/webhooks', { url: slowUrl, events: ['product:created'] });
    const { webhookId } = await register(['product:created']);
    try {
      await app.write('POST', '/products', { name: 'Held kettle', price: { amount: 100, currency: 'EUR' } });
      await until(() => held.length === 1 && hooks.received.some((r) => r.body.includes('Held kettle')), 'the first product at both');
      await app.write('POST', '/products', { name: 'Later kettle', price: { amount: 100, currency: 'EUR' } });
      await until(() => hooks.received.some((r) => r.body.includes('Later kettle')), 'the second product at the answering endpoint');
      // It came while the first request to the silent receiver was still open: nobody waited for it.
      expect(held[0]!.closed).toBe(false);
    } finally {
      for (const entry of held) entry.answer();
      await new Promise((resolve) => slow.close(resolve));
      await app.request('DELETE', `/admin/webhooks/${stuck.body.webhookId}`);
      await app.request('DELETE', `/admin/webhooks/${webhookId}`);
    }
  });

  it('disables an endpoint whose delivery fails for a day, says why, and refuses one past the bound', async () => {
    hooks.answerWith(() => 503);
    const { webhookId } = await register(['product:created']);
    await app.write('POST', '/products', { name: 'Unwanted kettle', price: { amount: 100, currency: 'EUR' } });
    await until(async () => {
      moveClock(3_600_000);
      return !(await app.request('GET', `/admin/webhooks/${webhookId}`)).body.enabled;
    }, 'the endpoint disabled');
    const endpoint = (await app.request('GET', `/admin/webhooks/${webhookId}`)).body;
    expect(endpoint.disabledReason).toMatch(/failed for 24 h: answered 503/);
    const [failed] = (await app.request('GET', `/admin/webhooks/${webhookId}/deliveries`)).body.items;
    expect(failed).toMatchObject({ status: 'failed', lastStatus: 503 });

    for (let i = 0; i < 2; i++) await register(['order:created']);
    const past = await app.request('POST', '/admin/webhooks', { url, events: ['order:created'] });
    expect(past.status).toBe(409);
    expect(past.body.detail).toMatch(/WEBHOOK_MAX_ENDPOINTS/);
  });
});
