// The subscriber SDK on the in-process bus of the embedded default: a module in the same process
// as the projector takes the public events off the bus the publisher puts them on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@eventide/kernel/log.ts';
import type { Outcome } from '@eventide/sdk/dispatch.ts';
import { createSubscriber } from '@eventide/sdk/subscriber.ts';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from './full-app.ts';

const log = createLogger({ level: 'silent' });
let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app?.close());

describe('subscriber on the in-process bus', () => {
  it('delivers a write to the handler, typed and checked, and the publisher’s checkpoint follows', async () => {
    const seen: string[] = [];
    const subscriber = createSubscriber({ bus: { bus: app.eventBus, group: 'mailer' }, keys: app.keys, log }).on(
      'user:created',
      (event) => void seen.push(event.data.email ?? '(forgotten)'),
    );
    await subscriber.start();
    const email = `in-process-${Date.now()}@example.com`;
    const { position } = await app.write('POST', '/users', { name: 'In Process', email });
    await until(() => seen.includes(email), 'the handler to see the new user');
    await until(async () => (await app.readStore.loadCheckpoint('event-bus-publisher:in-process')) >= position, 'the checkpoint');
    await subscriber.stop();
  });

  it('drops what a handler keeps failing on as a dead letter, and the rest keep flowing', async () => {
    const seen: string[] = [];
    const outcomes: Outcome[] = [];
    const subscriber = createSubscriber({
      bus: { bus: app.eventBus, group: 'picky' },
      log,
      retry: { attempts: 2, initialDelayMs: 5, maxDelayMs: 10 },
      onDelivery: (outcome) => void outcomes.push(outcome),
    }).on('product:created', (event) => {
      if (event.data.name === 'Poison') throw new Error('cannot handle this one');
      seen.push(event.data.name);
    });
    await subscriber.start();
    const product = (name: string) => app.write('POST', '/products', { name, price: { amount: 1, currency: 'EUR' } });
    const poison = await product('Poison');
    await product('Fine');
    await until(() => seen.includes('Fine'), 'the next product to be handled');
    expect(seen).not.toContain('Poison');
    expect(outcomes.filter((o) => o.kind === 'dead-lettered').map((o) => o.eventType)).toEqual(['product:created']);
    expect(poison.status).toBe(201);
    await subscriber.stop();
  });
});
