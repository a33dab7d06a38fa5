// The contract every EventBus adapter passes: what a publisher and a subscriber may count on,
// whichever bus carries the events. Each test subscribes before it publishes: where a group that
// joins later starts is the one thing the adapters do differently (port.ts), and each adapter's
// own tests say it.
import { describe, expect, it } from 'vitest';
import type { AnyEventEnvelope, EventName } from '@eventide/kernel/events/catalogue.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { until } from '@eventide/testing/wait.ts';
import type { BusMessage, EventBus, SubscribeOptions, Subscription } from './port.ts';

export interface EventBusHarness {
  bus: EventBus;
  dispose(): Promise<void>;
}

let position = 0;

/** An envelope as the publisher makes them; the bus carries it without looking inside. */
export function envelopeOf(type: EventName, entityId: string, revision = 0): AnyEventEnvelope {
  const [model] = type.split(':');
  return {
    id: newId(),
    type,
    streamId: `${model}-${entityId}`,
    revision,
    position: ++position,
    time: new Date().toISOString(),
    data: { [`${model}Id`]: entityId, revision },
    metadata: { correlationId: 'contract', causationId: 'contract', actor: { type: 'anonymous' } },
  } as unknown as AnyEventEnvelope;
}

/** A member that records what it was given, as the envelopes they carry. */
async function member(bus: EventBus, group: string, names: EventName[], deliver?: SubscribeOptions['deliver']) {
  const got: AnyEventEnvelope[] = [];
  const subscription: Subscription = await bus.subscribe({
    group,
    names,
    async deliver(message: BusMessage) {
      await deliver?.(message);
      got.push(JSON.parse(message.raw) as AnyEventEnvelope);
    },
  });
  return { got, subscription, ids: () => got.map((e) => e.id) };
}

export function eventBusContract(name: string, open: () => Promise<EventBusHarness>): void {
  describe(`EventBus contract: ${name}`, { timeout: 120_000 }, () => {
    async function withBus(body: (bus: EventBus) => Promise<void>): Promise<void> {
      const harness = await open();
      try {
        await body(harness.bus);
      } finally {
        await harness.dispose();
      }
    }

    it('delivers each published event of the names subscribed, as it was published, and no other', () =>
      withBus(async (bus) => {
        const reader = await member(bus, 'readers', ['user:created', 'product:created']);
        const user = envelopeOf('user:created', 'u1');
        const order = envelopeOf('order:created', 'o1');
        // Same entity, same model: the unwanted name comes first, so it was passed over by the
        // time the wanted one arrives.
        const deleted = envelopeOf('product:deleted', 'p1', 0);
        const product = envelopeOf('product:created', 'p1', 1);
        await bus.publish([user, order, deleted]);
        await bus.publish([product]);
        await until(() => reader.got.length >= 2, 'both wanted events');
        expect(reader.got).toEqual(expect.arrayContaining([user, product]));
        expect(reader.got).toHaveLength(2);
        await reader.subscription.stop();
      }));

    it('keeps each entity’s events in the order published', () =>
      withBus(async (bus) => {
        const reader = await member(bus, 'ordered', ['order:updated']);
        const entities = Array.from({ length: 6 }, () => newId());
        const published: AnyEventEnvelope[] = [];
        for (let batch = 0; batch < 10; batch++) {
          const envelopes = Array.from({ length: 30 }, (_, i) =>
            envelopeOf('order:updated', entities[i % 6]!, batch * 5 + Math.floor(i / 6)),
          );
          published.push(...envelopes);
          await bus.publish(envelopes);
        }
        await until(() => reader.got.length >= published.length, 'every update');
        for (const entity of entities) {
          const revisions = reader.got.filter((e) => e.streamId === `order-${entity}`).map((e) => e.revision);
          expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
          expect(revisions).toHaveLength(50);
        }
        await reader.subscription.stop();
      }));

    it('gives every group each event, and shares a group’s events between its members', () =>
      withBus(async (bus) => {
        const first = await member(bus, 'shared', ['user:created']);
        const second = await member(bus, 'shared', ['user:created']);
        const alone = await member(bus, 'alone', ['user:created']);
        const published = Array.from({ length: 40 }, () => envelopeOf('user:created', newId()));
        await bus.publish(published);
        const ids = published.map((e) => e.id);
        await until(() => alone.got.length >= ids.length, 'the second group to get every event');
        await until(() => new Set([...first.ids(), ...second.ids()]).size >= ids.length, 'the shared group to get every event');
        expect(new Set(alone.ids())).toEqual(new Set(ids));
        // At least once allows a repeat (a rebalance), never a copy to every member.
        expect(first.got.length + second.got.length).toBeLessThan(2 * ids.length);
        for (const m of [first, second, alone]) await m.subscription.stop();
      }));

    it('delivers again what a member failed to handle, before that entity’s next event', () =>
      withBus(async (bus) => {
        const failing = envelopeOf('product:updated', 'p-retry', 1);
        const next = envelopeOf('product:updated', 'p-retry', 2);
        let failures = 0;
        const reader = await member(bus, 'retrying', ['product:updated'], async ({ raw }) => {
          if (JSON.parse(raw).id === failing.id && failures++ === 0) throw new Error('the handler failed once');
        });
        await bus.publish([failing, next]);
        await until(() => reader.got.length >= 2, 'the failed event and the next');
        expect(failures).toBeGreaterThanOrEqual(2);
        expect(reader.ids().slice(0, 2)).toEqual([failing.id, next.id]);
        await reader.subscription.stop();
      }));

    it('delivers nothing more to a member once it stopped', () =>
      withBus(async (bus) => {
        const leaving = await member(bus, 'leaving', ['user:updated']);
        const staying = await member(bus, 'staying', ['user:updated']);
        const before = envelopeOf('user:updated', 'u-stop', 1);
        await bus.publish([before]);
        await until(() => leaving.got.length >= 1 && staying.got.length >= 1, 'both groups to get the first event');
        await leaving.subscription.stop();
        const after = envelopeOf('user:updated', 'u-stop', 2);
        await bus.publish([after]);
        await until(() => staying.got.length >= 2, 'the remaining group to get the second event');
        expect(leaving.ids()).toEqual([before.id]);
        await staying.subscription.stop();
      }));
  });
}
