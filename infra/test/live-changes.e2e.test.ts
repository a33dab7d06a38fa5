// The read models moving live (GET /changes, docs/api.md#live): each signed-in user gets the
// changes they may read, as the read route answers them, and only those; a stream resumes with
// Last-Event-ID; it is bounded per user, ends with the session, and refuses what is not asked right.
//
// Absence is shown without waiting for time: changes come in the order of the log, so once a
// change made after the one that must not arrive has arrived, it did not.
import { openStream } from '@eventide/testing/sse-stream.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ChangeEvent } from '@eventide/client/api-client.ts';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { reportingFetch } from '@eventide/testing/json-client.ts';
import { startFullApp, type FullApp } from './full-app.ts';

const PER_USER = 3;
let app: FullApp;
beforeAll(async () => {
  app = await startFullApp({ env: { LIVE_STREAMS_PER_USER: String(PER_USER) } });
});
afterAll(() => app?.close());

/** A stream of the typed client, for a client's session, that the test reads event by event. */
function follow(client: JsonClient, query: Parameters<ReturnType<typeof createApiClient>['changes']>[0] = {}) {
  const controller = new AbortController();
  const api = createApiClient({ baseUrl: app.url, headers: { cookie: client.cookieHeader() }, fetch: reportingFetch() });
  const events = api.changes(query, { signal: controller.signal });
  const seen: ChangeEvent[] = [];
  return {
    seen,
    /** Reads until an event matches; the test's own timeout bounds the wait. */
    async until(matches: (event: ChangeEvent) => boolean): Promise<ChangeEvent> {
      for (;;) {
        const next = await events.next();
        if (next.done) throw new Error(`the stream ended before a match; it sent ${JSON.stringify(seen)}`);
        seen.push(next.value);
        if (matches(next.value)) return next.value;
      }
    },
    /** Whether the stream ends by itself (the client's iterator returns). */
    async ended(): Promise<boolean> {
      for (;;) {
        const next = await events.next();
        if (next.done) return true;
        seen.push(next.value);
      }
    },
    close: () => controller.abort(),
  };
}

const changedEntity = (resource: string, id: string) => (event: ChangeEvent) =>
  (event.type === 'changed' || event.type === 'deleted') && event.resource === resource && event.id === id;
const ready = (event: ChangeEvent) => event.type === 'ready';

/** A product made now: a marker in the log, after everything written before it. */
async function marker(name = 'Marker'): Promise<string> {
  return (await app.request('POST', '/products', { name, price: { amount: 100, currency: 'EUR' } })).body.productId;
}

/** The raw stream, for what the typed client hides: status, headers, ids and Last-Event-ID; each message held to /asyncapi.json. */
const rawStream = (client: JsonClient, path: string, headers: Record<string, string> = {}) =>
  openStream(app.url, path, { cookie: client.cookieHeader(), ...headers });

describe('an order seen live', () => {
  it('reaches its customer as the read route shows it, and no other customer', async () => {
    const buyer = await signedInUser(app.url);
    const stranger = await signedInUser(app.url);
    const product = await marker('Teapot');
    const order = (await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [{ productId: product, quantity: 2 }] })).body;
    const buyerStream = follow(buyer, { of: ['orders'] });
    const strangerStream = follow(stranger, { of: ['orders', 'products'] });
    await buyerStream.until(ready);
    await strangerStream.until(ready);

    await buyer.request('PATCH', `/orders/${order.orderId}`, { status: 'placed' });
    await app.request('PATCH', `/orders/${order.orderId}`, { status: 'paid' });
    await app.request('PATCH', `/orders/${order.orderId}`, { status: 'shipped' });
    const shipped = await buyerStream.until(
      (e) => e.type === 'changed' && e.resource === 'orders' && e.id === order.orderId && e.body.status === 'shipped',
    );
    const read = await buyer.request('GET', `/orders/${order.orderId}`);
    expect(shipped).toMatchObject({ resource: 'orders', version: read.body.version, body: read.body });
    expect(shipped.position).toBeGreaterThan(0);

    const after = await marker();
    await strangerStream.until(changedEntity('products', after));
    expect(strangerStream.seen.filter(changedEntity('orders', order.orderId))).toEqual([]);
    buyerStream.close();
    strangerStream.close();
  });

  it('tells that an order was deleted, without its body', async () => {
    const buyer = await signedInUser(app.url);
    const order = (await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [] })).body;
    const stream = follow(buyer, { of: ['orders'] });
    await stream.until(ready);
    await buyer.request('DELETE', `/orders/${order.orderId}`);
    const deleted = await stream.until((e) => changedEntity('orders', order.orderId)(e) && e.type === 'deleted');
    expect(deleted).toMatchObject({ id: order.orderId, version: 1 });
    expect(deleted).not.toHaveProperty('body');
    stream.close();
  });
});

describe('users and products seen live', () => {
  it('shows a user their own profile and an admin everyone’s, and a customer nobody else’s', async () => {
    const watcher = await signedInUser(app.url);
    const other = await signedInUser(app.url);
    const mine = follow(watcher, { of: ['users', 'products'] });
    const admins = follow(app, { of: ['users'] });
    await mine.until(ready);
    await admins.until(ready);

    await other.request('PATCH', `/users/${other.userId}`, { name: 'Someone Else' });
    await watcher.request('PATCH', `/users/${watcher.userId}`, { name: 'The Watcher' });
    const own = await mine.until(changedEntity('users', watcher.userId));
    expect(own).toMatchObject({ type: 'changed', body: { name: 'The Watcher', email: watcher.email } });
    const seenByAdmin = await admins.until(changedEntity('users', other.userId));
    expect(seenByAdmin).toMatchObject({ type: 'changed', body: { name: 'Someone Else' } });

    const after = await marker();
    await mine.until(changedEntity('products', after));
    expect(mine.seen.filter(changedEntity('users', other.userId))).toEqual([]);
    mine.close();
    admins.close();
  });

  it('follows only the resources named', async () => {
    const watcher = await signedInUser(app.url);
    const stream = follow(watcher, { of: ['products'] });
    await stream.until(ready);
    await watcher.request('PATCH', `/users/${watcher.userId}`, { name: 'Not Followed' });
    const after = await marker();
    await stream.until(changedEntity('products', after));
    expect(stream.seen.filter((e) => e.type === 'changed' && e.resource !== 'products')).toEqual([]);
    stream.close();
  });
});

describe('resuming', () => {
  it('sends, after Last-Event-ID, each entity that changed since, once, as it is now', async () => {
    const buyer = await signedInUser(app.url);
    const product = await marker('Cup');
    const order = (await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [{ productId: product, quantity: 1 }] })).body;
    const first = await rawStream(buyer, '/changes?of=orders');
    expect(first.response.headers.get('content-type')).toContain('text/event-stream');
    const [opened] = (await first.until((m) => m.event === 'ready')).slice(-1);
    first.close();

    // While the client is away: three changes of the order.
    await buyer.request('PATCH', `/orders/${order.orderId}`, { lines: [{ productId: product, quantity: 3 }] });
    await buyer.request('PATCH', `/orders/${order.orderId}`, { status: 'placed' });
    const cancelled = await app.write('PATCH', `/orders/${order.orderId}`, { status: 'cancelled' });
    await app.request('GET', `/orders/${order.orderId}`, undefined, { 'Wait-For-Position': String(cancelled.position) });

    const again = await rawStream(buyer, '/changes?of=orders', { 'Last-Event-ID': opened!.id! });
    const messages = await again.until((m) => m.event === 'ready');
    const ofOrder = messages.filter((m) => m.event === 'changed' && JSON.parse(m.data).id === order.orderId);
    expect(ofOrder).toHaveLength(1);
    expect(JSON.parse(ofOrder[0]!.data)).toMatchObject({ version: 3, body: { status: 'cancelled' } });
    expect(Number(ofOrder[0]!.id)).toBe(cancelled.position);
    expect(Number(messages.at(-1)!.id)).toBeGreaterThanOrEqual(cancelled.position);
    again.close();
  });

  it('tells a client that comes back from a position the store never gave to reload', async () => {
    const watcher = await signedInUser(app.url);
    const stream = await rawStream(watcher, '/changes', { 'Last-Event-ID': '999999999999' });
    const [reset] = await stream.until((m) => m.event === 'reset');
    expect(JSON.parse(reset!.data).reason).toContain('reload');
    await stream.until((m) => m.event === 'ready');
    stream.close();
  });
});

describe('limits and refusals', () => {
  it('holds a user to their streams at once, however many are asked for together', async () => {
    const greedy = await signedInUser(app.url);
    const attempts = await Promise.all(Array.from({ length: PER_USER + 4 }, () => rawStream(greedy, '/changes')));
    const open = attempts.filter((a) => a.response.status === 200);
    const refused = attempts.filter((a) => a.response.status === 429);
    expect(open).toHaveLength(PER_USER);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.response.headers.get('content-type')).toContain('application/problem+json');
    expect(refused[0]!.refusal!.detail).toContain(`at most ${PER_USER} live change streams`);
    // Another user is not held by it.
    const other = await rawStream(await signedInUser(app.url), '/changes');
    expect(other.response.status).toBe(200);
    other.close();

    // A stream closed gives its place back (once the server has seen it close).
    open[0]!.close();
    let next = await rawStream(greedy, '/changes');
    while (next.response.status === 429) next = await rawStream(greedy, '/changes');
    expect(next.response.status).toBe(200);
    for (const stream of [...open, next]) stream.close();
  });

  it('refuses strangers and names what is wrong', async () => {
    expect((await rawStream(app.anonymous(), '/changes')).response.status).toBe(401);
    const watcher = await signedInUser(app.url);
    for (const [path, field] of [
      ['/changes?of=orders,invoices', 'of'],
      ['/changes?of=', 'of'],
      ['/changes?after=yesterday', 'after'],
    ] as const) {
      const refused = await watcher.request('GET', path);
      expect(refused.status, path).toBe(400);
      expect(refused.body.errors[0].field, path).toBe(field);
    }
    const badId = await watcher.request('GET', '/changes', undefined, { 'Last-Event-ID': 'abc' });
    expect(badId.status).toBe(400);
    expect(badId.body.errors[0].field).toBe('Last-Event-ID');
  });

  it('ends when the session does', async () => {
    const watcher = await signedInUser(app.url);
    const stream = follow(watcher, { of: ['products'] });
    await stream.until(ready);
    await watcher.request('POST', '/auth/sign-out');
    expect(await stream.ended()).toBe(true);
  });
});
