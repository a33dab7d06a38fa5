// The projector as one part of a process (packages/runtime/src/compose.ts): it follows the event
// store into the read models, publishes the public events on the event bus (Kafka when
// KAFKA_BROKERS is set, else the in-process bus), forgets every deleted user (forgetter.ts), and sends
// the webhooks admins registered (webhooks/). It serves no routes of its own, only what it
// reports on the operator's GET /health (METRICS_PORT).
import { PROJECTOR_FOLLOWERS } from '@eventide/kernel/events/followers.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { Metrics } from '@eventide/platform/metrics/metrics.ts';
import type { Service, ServiceFactory } from '@eventide/runtime/compose.ts';
import { startProjector, type Projector } from './projector.ts';
import { startForgetter, type Forgetter } from './forgetter.ts';
import { startPublisher, type Publisher } from './publisher.ts';
import { startWebhooks, type Webhooks } from './webhooks/webhooks.ts';
import { followersProbe, parkedGauge } from '@eventide/runtime/followers/health.ts';

export interface ProjectorService extends Service {
  projector: Projector;
  publisher: Publisher;
  forgetter: Forgetter;
  webhooks: Webhooks;
}

export function projectorService(): ServiceFactory<ProjectorService> {
  return async ({
    config,
    log,
    eventStore,
    readModels,
    eventBus,
    parked: openParked,
    webhooks: openWebhooks,
    clock,
    projected,
    metrics,
  }) => {
    const events = await eventStore();
    const read = await readModels();
    const bus = await eventBus();
    const parked = (await openParked()).store;
    const projector = startProjector({ eventStore: events.store, readStore: read.store, parked, log });
    const stopWatching = projector.onProgress(() => projected.notify());
    const publisher = startPublisher({ eventStore: events.store, checkpoints: read.store, parked, bus: bus.store, log });
    const forgetter = startForgetter({ eventStore: events.store, keys: events.keys, checkpoints: read.store, parked, log });
    const webhookStore = await openWebhooks();
    const webhooks = startWebhooks({
      eventStore: events.store,
      store: webhookStore.store,
      checkpoints: read.store,
      parked,
      clock,
      config,
      log,
    });
    log.info({ bus: bus.description }, 'publishing the public events');
    followerGauges(metrics, events.store, { projected: projector.position, published: publisher.position });
    const health = {
      followers: PROJECTOR_FOLLOWERS,
      events: events.store,
      parked,
      activeGeneration: () => read.store.activeGeneration(),
      positions: () => ({
        projectedTo: projector.position(),
        publishedTo: publisher.position(),
        forgottenTo: forgetter.position(),
        webhooksAt: webhooks.follower.position(),
      }),
      maxStallSeconds: config.READY_MAX_STALL_SECONDS,
    };
    parkedGauge(metrics, health);
    const probe = followersProbe(health);
    return {
      probes: () => [probe],
      projector,
      publisher,
      forgetter,
      webhooks,
      health: () => ({
        eventStore: events.description,
        readStore: read.description,
        eventBus: bus.description,
        projectedTo: projector.position(),
        publishedTo: publisher.position(),
        forgottenTo: forgetter.position(),
        webhooks: webhookStore.description,
        webhooksAt: webhooks.follower.position(),
      }),
      async close() {
        stopWatching();
        await Promise.all([projector.stop(), publisher.stop(), forgetter.stop(), webhooks.stop()]);
      },
    };
  };
}

/** The followers' lags, read when scraped: where each has got, against the store's head. */
export function followerGauges(metrics: Metrics, events: EventStore, at: { projected: () => number; published: () => number }): void {
  const behind = async (position: number) => Math.max(0, (await events.head()) - position);
  metrics.gaugeOnScrape('projector_lag_events', 'Events in the log the read models have not projected yet', () => behind(at.projected()));
  metrics.gaugeOnScrape('projector_lag_seconds', 'Age of the oldest event the read models have not projected yet', async () => {
    const [oldest] = await events.readAll({ after: at.projected(), limit: 1 });
    return oldest ? Math.max(0, (Date.now() - Date.parse(oldest.time)) / 1000) : 0;
  });
  metrics.gaugeOnScrape('publisher_lag_events', 'Events in the log not yet published on the event bus', () => behind(at.published()));
}
