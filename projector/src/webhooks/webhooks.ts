// Webhooks in the projector's process (docs/webhooks.md): a follower of the log queues a delivery
// of each public event to each endpoint that asked for its type, and a sender sends what is due,
// each entity's deliveries to an endpoint one at a time and in log order, retrying with backoff
// for WEBHOOK_RETRY_HOURS. A delivery that fails that long fails, and its endpoint is disabled,
// saying why, for an admin to see and enable again; so is one whose queue is full.
import type { Clock } from '@eventide/kernel/clock.ts';
import type { Config } from '@eventide/kernel/config.ts';
import type { AnyEventEnvelope } from '@eventide/kernel/events/catalogue.ts';
import { toEnvelope } from '@eventide/kernel/events/envelope.ts';
import { derivedId } from '@eventide/kernel/ids.ts';
import type { Logger } from '@eventide/kernel/log.ts';
import { backoffDelay } from '@eventide/kernel/backoff.ts';
import { wakeableSleep } from '@eventide/kernel/wakeable-sleep.ts';
import { startFollower, type Checkpoints, type Follower } from '@eventide/runtime/followers/follower.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { ParkedEvents } from '@eventide/stores/parked/port.ts';
import { WEBHOOKS_CHECKPOINT } from '@eventide/stores/read-store/follower-checkpoints.ts';
import type { Delivery, WebhookStore } from '@eventide/stores/webhooks/port.ts';
import { webhookPayload } from './payload.ts';
import { send } from './send.ts';

/** The waits between attempts, then the last one again until the retry time is over. */
export const RETRY_AFTER_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000] as const;
/** How long a claimed delivery is another sender's: past the longest answer a receiver may take. */
const LEASE_MARGIN_MS = 30_000;
/** The longest the sender waits between looks: an admin's redelivery, made in another process, waits at most this. */
const LOOK_EVERY_MS = 1_000;
/** Delivered and failed deliveries kept per endpoint, for its admin. */
export const DELIVERIES_KEPT = 1_000;

export interface Webhooks {
  follower: Follower;
  stop(): Promise<void>;
}

export function startWebhooks(options: {
  eventStore: EventStore;
  store: WebhookStore;
  checkpoints: Checkpoints;
  parked: ParkedEvents;
  clock: Clock;
  config: Pick<
    Config,
    'WEBHOOK_MAX_QUEUED' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_HOURS' | 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_ALLOWED_RANGES'
  >;
  log: Logger;
}): Webhooks {
  const { store, clock, config } = options;
  const log = options.log.child({ component: 'webhooks' });
  const policy = { allowed: config.WEBHOOK_ALLOWED_RANGES };
  const retryMs = config.WEBHOOK_RETRY_HOURS * 3_600_000;
  const controller = new AbortController();
  const timer = wakeableSleep(controller.signal);
  const rouse = timer.wake;

  const follower = startFollower({
    name: 'webhooks',
    checkpoint: WEBHOOKS_CHECKPOINT,
    eventStore: options.eventStore,
    // Personal fields are left out of what is sent: they need not be opened.
    keepSealed: true,
    checkpoints: options.checkpoints,
    parked: options.parked,
    log,
    probe: () => store.nextDue(),
    async handle(batch) {
      const endpoints = await store.endpoints();
      if (endpoints.length === 0) return;
      const now = clock.now();
      const queued: Delivery[] = [];
      for (const event of batch) {
        const envelope: AnyEventEnvelope | undefined = toEnvelope(event);
        if (!envelope) continue;
        for (const endpoint of endpoints) {
          if (event.position <= endpoint.fromPosition || !endpoint.events.includes(envelope.type)) continue;
          queued.push({
            id: derivedId('webhook-delivery', endpoint.id, envelope.id),
            endpointId: endpoint.id,
            eventId: envelope.id,
            eventType: envelope.type,
            entity: envelope.streamId,
            position: envelope.position,
            payload: webhookPayload(envelope),
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            createdAt: new Date(now).toISOString(),
          });
        }
      }
      const refused = await store.enqueue(queued, config.WEBHOOK_MAX_QUEUED);
      for (const [endpointId, count] of refused) {
        const reason = `its queue reached WEBHOOK_MAX_QUEUED (${config.WEBHOOK_MAX_QUEUED}) undelivered events: later events are not queued for it`;
        log.warn({ endpointId, notQueued: count }, 'a webhook endpoint is disabled: its queue is full');
        await store.disable(endpointId, reason, new Date(now).toISOString(), count);
      }
      if (queued.length > 0) rouse();
    },
  });

  /** One attempt at a delivery, and what it leads to. */
  async function attempt(delivery: Delivery): Promise<void> {
    const endpoint = await store.endpoint(delivery.endpointId);
    if (!endpoint?.enabled) {
      await store.record(delivery.id, { status: 'pending', attempts: delivery.attempts, nextAttemptAt: delivery.nextAttemptAt });
      return;
    }
    const now = clock.now();
    const result = await send({
      url: endpoint.url,
      messageId: delivery.eventId,
      body: delivery.payload,
      secrets: endpoint.secrets,
      now,
      policy,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    });
    const attempts = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ?? now;
    const seen = {
      attempts,
      firstAttemptAt,
      lastAttemptAt: new Date(now).toISOString(),
      ...(result.status ? { lastStatus: result.status } : {}),
    };
    if (result.ok) {
      await store.record(delivery.id, { ...seen, status: 'delivered', nextAttemptAt: now, deliveredAt: new Date(now).toISOString() });
      return;
    }
    const wait = RETRY_AFTER_MS[Math.min(attempts, RETRY_AFTER_MS.length) - 1]!;
    if (now + wait - firstAttemptAt <= retryMs) {
      await store.record(delivery.id, { ...seen, status: 'pending', nextAttemptAt: now + wait, lastError: result.error! });
      return;
    }
    await store.record(delivery.id, { ...seen, status: 'failed', nextAttemptAt: now, lastError: result.error! });
    const reason = `a delivery (event ${delivery.eventId}) failed for ${config.WEBHOOK_RETRY_HOURS} h: ${result.error}`;
    log.warn(
      { endpointId: endpoint.id, deliveryId: delivery.id, error: result.error },
      'a webhook endpoint is disabled: a delivery kept failing',
    );
    await store.disable(endpoint.id, reason, new Date(now).toISOString());
  }

  /**
   * Deliveries in flight, by endpoint. Each takes a slot while it is sent and frees it when it ends,
   * whatever the others do; no endpoint holds more than its share of the slots, so a receiver that
   * answers slowly (or never, until WEBHOOK_TIMEOUT_MS) delays its own deliveries, not the others'.
   */
  const inFlight = new Map<string, number>();
  const flying = new Set<Promise<void>>();
  const share = Math.max(1, Math.ceil(config.WEBHOOK_CONCURRENCY / 2));

  function launch(delivery: Delivery): void {
    inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 0) + 1);
    const sent: Promise<void> = attempt(delivery)
      .catch((error: unknown) =>
        log.error(
          { err: error, deliveryId: delivery.id },
          'a webhook delivery could not be recorded; it is tried again once its claim runs out',
        ),
      )
      .finally(() => {
        const left = inFlight.get(delivery.endpointId)! - 1;
        if (left === 0) inFlight.delete(delivery.endpointId);
        else inFlight.set(delivery.endpointId, left);
        flying.delete(sent);
        rouse();
      });
    flying.add(sent);
  }

  async function runSender(): Promise<void> {
    let failures = 0;
    let pruned = 0;
    while (!controller.signal.aborted) {
      try {
        const free = config.WEBHOOK_CONCURRENCY - flying.size;
        let claimed: Delivery[] = [];
        if (free > 0) {
          const full = [...inFlight].filter(([, count]) => count >= share).map(([endpointId]) => endpointId);
          claimed = await store.claim(clock.now(), free, config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS, full);
          for (const delivery of claimed) launch(delivery);
        }
        failures = 0;
        if (Date.now() - pruned > 60_000) {
          pruned = Date.now();
          await store.prune(DELIVERIES_KEPT);
        }
        if (free > 0 && claimed.length === free) continue;
        // What is due and was not claimed waits for a delivery in flight (its endpoint's share, its
        // entity's turn) or another sender's claim: the end of a delivery wakes this loop, and it
        // looks again within LOOK_EVERY_MS whatever happens. What is due later is slept until.
        const next = await store.nextDue();
        const now = clock.now();
        await timer.sleep(next === undefined || next <= now ? LOOK_EVERY_MS : Math.min(LOOK_EVERY_MS, next - now));
      } catch (error) {
        failures++;
        const delay = backoffDelay(failures);
        log.error({ err: error, retryInMs: Math.round(delay) }, 'webhooks could not be sent; trying again');
        await timer.sleep(delay);
      }
    }
    await Promise.all(flying);
  }

  const stopJumps = clock.onJump(rouse);
  const sender = runSender();
  return {
    follower,
    async stop() {
      controller.abort();
      stopJumps();
      await Promise.all([follower.stop(), sender]);
    },
  };
}
