import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let n = 0;
const uniqueEmail = (tag = 'u') => `${tag}${++n}-${Date.now()}@example.com`;

async function createUser(email = uniqueEmail(), name = 'Ann') {
  const reply = await app.request('POST', '/users', { name, email });
  expect(reply.status).toBe(201);
  return reply;
}

describe('POST /users', () => {
  it('creates a user and answers with its state, revision and position', async () => {
    const email = uniqueEmail();
    const reply = await app.request('POST', '/users', { name: 'Ann', email }, { 'X-Correlation-Id': 'test-corr-1' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ name: 'Ann', email, version: 0 });
    expect(reply.headers.get('etag')).toBe('"0"');
    expect(reply.headers.get('location')).toBe(`/users/${reply.body.userId}`);
    const position = Number(reply.headers.get('event-position'));
    expect(position).toBeGreaterThan(0);
    expect(reply.headers.get('x-correlation-id')).toBe('test-corr-1');

    const [event] = await app.store.readStream(`user-${reply.body.userId}`);
    expect(event).toMatchObject({
      type: 'user:created',
      position,
      data: { userId: reply.body.userId, name: 'Ann', email },
      metadata: { correlationId: 'test-corr-1', actor: { type: 'user', userId: app.admin.userId } },
    });
    expect(reply.body.createdAt).toBe(event!.time);
  });

  it('gives exactly one 201 to concurrent sign-ups with one email, whatever its case', async () => {
    const email = uniqueEmail('race');
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.request('POST', '/users', { name: `N${i}`, email: i % 2 ? email.toUpperCase() : email })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = replies.filter((r) => r.status === 409);
    expect(refused).toHaveLength(9);
    expect(refused[0]!.body.errors).toEqual([{ field: 'email', message: 'is already in use' }]);
  });

  it('frees an address when its user is deleted or moves to another address', async () => {
    const first = uniqueEmail('free');
    const a = await createUser(first);
    const moved = uniqueEmail('moved');
    expect((await app.request('PATCH', `/users/${a.body.userId}`, { email: moved })).status).toBe(200);
    expect((await app.request('POST', '/users', { name: 'B', email: first })).status).toBe(201);
    expect((await app.request('POST', '/users', { name: 'C', email: moved })).status).toBe(409);
    expect((await app.request('DELETE', `/users/${a.body.userId}`)).status).toBe(200);
    expect((await app.request('POST', '/users', { name: 'C', email: moved })).status).toBe(201);
  });

  it('lets a user change the case of their own address', async () => {
    const email = uniqueEmail('case');
    const a = await createUser(email);
    const reply = await app.request('PATCH', `/users/${a.body.userId}`, { email: email.toUpperCase() });
    expect(reply.status).toBe(200);
    expect((await app.request('POST', '/users', { name: 'X', email })).status).toBe(409);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retried POST with the first result and writes one event', async () => {
    const before = await app.eventCount();
    const body = { name: 'Idem', email: uniqueEmail('idem') };
    const headers = { 'Idempotency-Key': `key-${Date.now()}` };
    const first = await app.request('POST', '/users', body, headers);
    const retries = await Promise.all([1, 2, 3].map(() => app.request('POST', '/users', body, headers)));
    expect(first.status).toBe(201);
    for (const retry of retries) {
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(retry.headers.get('event-position')).toBe(first.headers.get('event-position'));
    }
    // the user's event and its email claim
    expect(await app.eventCount()).toBe(before + 2);
  });

  it('answers the first result even after the entity changed', async () => {
    const body = { name: 'Idem', email: uniqueEmail('idem') };
    const headers = { 'Idempotency-Key': `key-later-${Date.now()}` };
    const first = await app.request('POST', '/users', body, headers);
    await app.request('PATCH', `/users/${first.body.userId}`, { name: 'Changed' });
    const retry = await app.request('POST', '/users', body, headers);
    expect(retry.body).toEqual(first.body);
  });

  it('refuses a key sent empty or blank, which would otherwise give a retry a second write', async () => {
    for (const key of ['', '   ']) {
      const before = await app.eventCount();
      const reply = await app.request(
        'POST',
        '/products',
        { name: 'Blank key', price: { amount: 1, currency: 'EUR' } },
        { 'Idempotency-Key': key },
      );
      expect(reply.status, JSON.stringify(key)).toBe(400);
      expect(reply.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('1 to 255') }]);
      expect(await app.eventCount()).toBe(before);
    }
  });

  it('refuses the same key with a different request', async () => {
    const headers = { 'Idempotency-Key': `key-reuse-${Date.now()}` };
    expect((await app.request('POST', '/users', { name: 'A', email: uniqueEmail() }, headers)).status).toBe(201);
    const before = await app.eventCount();
    const reused = await app.request('POST', '/users', { name: 'B', email: uniqueEmail() }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].field).toBe('Idempotency-Key');
    expect(await app.eventCount()).toBe(before);
  });

  it('makes a retried DELETE answer like the first', async () => {
    const user = await createUser();
    const headers = { 'Idempotency-Key': `key-del-${Date.now()}` };
    const first = await app.request('DELETE', `/users/${user.body.userId}`, undefined, headers);
    const retry = await app.request('DELETE', `/users/${user.body.userId}`, undefined, headers);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await app.request('DELETE', `/users/${user.body.userId}`)).status).toBe(410);
  });
});

describe('PATCH and DELETE /users/{userId}', () => {
  it('changes any subset of fields and bumps the revision', async () => {
    const user = await createUser();
    const reply = await app.request('PATCH', `/users/${user.body.userId}`, { name: 'Ann Changed' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Ann Changed', email: user.body.email, version: 1 });
    expect(reply.headers.get('etag')).toBe('"1"');
  });

  it('writes nothing for a change that changes nothing', async () => {
    const user = await createUser();
    const before = await app.eventCount();
    const reply = await app.request('PATCH', `/users/${user.body.userId}`, { name: 'Ann' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBe('"0"');
    expect(await app.eventCount()).toBe(before);
  });

  it('makes a write conditional on If-Match', async () => {
    const user = await createUser();
    const path = `/users/${user.body.userId}`;
    expect((await app.request('PATCH', path, { name: 'One' }, { 'If-Match': '"0"' })).status).toBe(200);
    const stale = await app.request('PATCH', path, { name: 'Two' }, { 'If-Match': '"0"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toContain('application/problem+json');
    expect(stale.body.errors[0].field).toBe('If-Match');
    expect((await app.request('PATCH', path, { name: 'Two' }, { 'If-Match': '"5", "1"' })).status).toBe(200);
    expect((await app.request('PATCH', path, { name: 'Three' }, { 'If-Match': '*' })).status).toBe(200);
    expect((await app.request('PATCH', path, { name: 'Four' }, { 'If-Match': 'W/"3"' })).status).toBe(400);
    expect((await app.request('PATCH', path, { name: 'Four' }, { 'If-Match': 'nonsense' })).status).toBe(400);
  });

  it('gives 412 to all but one of concurrent writes conditional on one revision', async () => {
    const user = await createUser();
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => app.request('PATCH', `/users/${user.body.userId}`, { name: `C${i}` }, { 'If-Match': '"0"' })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 412)).toHaveLength(7);
  });

  it('answers 404 for an unknown id and 410 for a deleted user', async () => {
    expect((await app.request('PATCH', '/users/6f1c1a3e-0000-4000-8000-000000000000', { name: 'x' })).status).toBe(404);
    expect((await app.request('PATCH', '/users/not-a-uuid', { name: 'x' })).status).toBe(404);
    const user = await createUser();
    const deleted = await app.request('DELETE', `/users/${user.body.userId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedAt).toEqual(expect.any(String));
    const after = await app.request('PATCH', `/users/${user.body.userId}`, { name: 'x' });
    expect(after.status).toBe(410);
    expect(after.body.type).toBe('/problems/gone');
  });
});

describe('versioned users', () => {
  it('serves v1 deprecated, in the v1 shape', async () => {
    const reply = await app.request('POST', '/v1/users', { name: 'Old', email: uniqueEmail('v1') });
    expect(reply.status).toBe(201);
    expect(Object.keys(reply.body).sort()).toEqual(['email', 'name', 'userId']);
    expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(reply.headers.get('sunset')).toMatch(/GMT$/);
    expect(reply.headers.get('link')).toContain('rel="successor-version"');
    expect(reply.headers.get('location')).toBe(`/v1/users/${reply.body.userId}`);
    const missing = await app.request('PUT', `/v1/users/${reply.body.userId}`, { name: 'Only name' });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('deprecation')).toMatch(/^@\d+$/);
  });

  it('replaces a user with PUT on v2, without deprecation', async () => {
    const user = await createUser();
    const email = uniqueEmail('v2');
    const reply = await app.request('PUT', `/v2/users/${user.body.userId}`, { name: 'New', email });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ name: 'New', email, version: 1 });
    expect(reply.headers.get('deprecation')).toBeNull();
    const removed = await app.request('DELETE', `/v2/users/${user.body.userId}`);
    expect(removed.status).toBe(200);
  });
});
