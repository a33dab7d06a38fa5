// Metrics for a subscriber, on the service's own prom-client registry: pass the result as
// `onDelivery`. Every delivery counts by outcome (a dead letter is `dead-lettered`), and every
// handled one records how long after it was recorded it was handled: the subscriber's lag.
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Outcome } from './dispatch.ts';

const LAG_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600];

export function subscriberMetrics(registry: Registry, group: string, clock: () => number = Date.now): (outcome: Outcome) => void {
  const deliveries =
    (registry.getSingleMetric('subscriber_deliveries_total') as Counter<'group' | 'outcome' | 'event'> | undefined) ??
    new Counter({
      name: 'subscriber_deliveries_total',
      help: 'Events delivered to a subscriber, by group, outcome (handled, duplicate, dead-lettered, ignored) and event name',
      labelNames: ['group', 'outcome', 'event'],
      registers: [registry],
    });
  const lag =
    (registry.getSingleMetric('subscriber_lag_seconds') as Histogram<'group'> | undefined) ??
    new Histogram({
      name: 'subscriber_lag_seconds',
      help: 'From an event recorded in the event store to its handlers done, by group',
      labelNames: ['group'],
      buckets: LAG_SECONDS,
      registers: [registry],
    });
  return (outcome) => {
    deliveries.inc({ group, outcome: outcome.kind, event: outcome.eventType ?? 'unreadable' });
    const recorded = outcome.time === undefined ? Number.NaN : Date.parse(outcome.time);
    if (outcome.kind === 'handled' && Number.isFinite(recorded)) lag.observe({ group }, Math.max(0, (clock() - recorded) / 1000));
  };
}
