import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { sampleOf } from '@eventide/testing/prometheus-text.ts';
import { Dispatcher } from './dispatch.ts';
import { subscriberMetrics } from './metrics.ts';

const recorded = '2026-11-20T00:00:00.000Z';
const event = (id: string) =>
  JSON.stringify({
    id,
    type: 'product:created',
    streamId: 'product-p1',
    revision: 0,
    position: 1,
    time: recorded,
    data: { productId: 'p1', name: 'Kettle', description: '', price: { amount: 1, currency: 'EUR' }, sku: 'K1', category: 'Home' },
    metadata: { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } },
  });

describe('subscriber metrics', () => {
  it('counts deliveries by outcome, dead letters included, and observes the lag of handled events', async () => {
    const registry = new Registry();
    const now = Date.parse(recorded) + 2_500;
    const dispatcher = new Dispatcher({
      retry: { attempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
      deadLetter: async () => undefined,
      sleep: async () => undefined,
      observe: subscriberMetrics(registry, 'billing', () => now),
    });
    let fail = false;
    dispatcher.on('product:created', () => {
      if (fail) throw new Error('down');
    });
    await dispatcher.dispatch(event('e1'));
    fail = true;
    await dispatcher.dispatch(event('e2'));
    await dispatcher.dispatch('not json');

    const text = await registry.metrics();
    const deliveries = (outcome: string) => sampleOf(text, 'subscriber_deliveries_total', { group: 'billing', outcome });
    expect([deliveries('handled'), deliveries('dead-lettered')]).toEqual([1, 2]);
    expect(sampleOf(text, 'subscriber_deliveries_total', { outcome: 'dead-lettered', event: 'unreadable' })).toBe(1);
    expect(sampleOf(text, 'subscriber_lag_seconds_count', { group: 'billing' })).toBe(1);
    expect(sampleOf(text, 'subscriber_lag_seconds_sum', { group: 'billing' })).toBe(2.5);
    // A second subscriber on the same registry shares the families.
    expect(() => subscriberMetrics(registry, 'mail')).not.toThrow();
  });
});
