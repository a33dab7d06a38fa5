// A correlation id followed through the logs: the request's access line, then with LOG_LEVEL=debug
// one line per stage its events pass (projected, published, delivered to a subscriber's group),
// each carrying the id the caller sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { createSubscriber } from '@eventide/sdk/subscriber.ts';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from './full-app.ts';

const { log, lines } = capturedLog('debug');
let app: FullApp;
beforeAll(async () => {
  app = await startFullApp({ log });
});
afterAll(() => app?.close());

it('carries the caller’s correlation id into every log line along the path of its events', async () => {
  const handled: string[] = [];
  const subscriber = createSubscriber({ bus: { bus: app.eventBus, group: 'trail' }, keys: app.keys, log }).on('user:created', (event) => {
    handled.push(event.metadata.correlationId);
  });
  await subscriber.start();
  const correlationId = `trail-${Date.now()}`;
  const reply = await app.request(
    'POST',
    '/users',
    { name: 'Traced', email: `${correlationId}@example.com` },
    { 'X-Correlation-Id': correlationId },
  );
  expect(reply.status).toBe(201);
  await until(() => handled.includes(correlationId), 'the subscriber to handle the sign-up');
  const stages = () => new Set(lines.filter((l) => l.correlationId === correlationId).map((l) => l.msg));
  await until(
    () => ['request', 'event projected', 'event published', 'event delivered'].every((stage) => stages().has(stage)),
    'a line with the correlation id for each stage',
    10_000,
  );
  const delivered = lines.find((l) => l.correlationId === correlationId && l.msg === 'event delivered');
  expect(delivered).toMatchObject({ eventType: 'user:created', outcome: 'handled' });
  await subscriber.stop();
});
