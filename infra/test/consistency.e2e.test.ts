// A read that does not ask never waits; one that asks waits a bounded time, then says 503.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFullApp, type FullApp } from './full-app.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

it('answers at once from where the read models are, and waits only when asked', async () => {
  await app.projector.stop(); // the read side falls behind from here on
  const written = await app.write('POST', '/users', { name: 'Late', email: 'late@example.com' });
  const plain = await app.request('GET', `/users/${written.body.userId}`);
  expect(plain.status).toBe(404);
  expect(Number(plain.headers.get('read-position'))).toBeLessThan(written.position);

  const asked = await app.request('GET', `/users/${written.body.userId}`, undefined, {
    'Wait-For-Position': String(written.position),
    Prefer: 'wait=1',
  });
  expect(asked.status).toBe(503);
  expect(asked.headers.get('retry-after')).toBe('1');
  expect(asked.body.type).toBe('/problems/not-yet-consistent');
});
