// The subscriber SDK over Kafka (librdkafka's mock cluster), fed by the real publisher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import { kafkaBus } from '@eventide/stores/event-bus/kafka.ts';
import { topicOf } from '@eventide/kernel/events/on-the-wire.ts';
import type { EventBus } from '@eventide/stores/event-bus/port.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { toEnvelope } from '@eventide/kernel/events/envelope.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { createSubscriber, type Subscriber, type SubscriberSettings } from '@eventide/sdk/subscriber.ts';
import { startPublisher, type Checkpoints, type Publisher } from '@eventide/projector/src/publisher.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { kcatAvailable, kcatRead, startMockKafka, type MockKafka } from '@eventide/testing/mock-kafka.ts';
import { memoryCheckpoints } from './memory-checkpoints.ts';
import { runCli } from './process.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';

const log = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' as const } };

if (!kcatAvailable()) {
  console.warn('SKIPPED: Kafka subscriber tests: kcat is not installed (apt-get install -y kcat gives the mock cluster)');
  describe('Kafka subscriber SDK', () => it.skip('skipped: kcat is not installed', () => {}));
} else {
  describe('Kafka subscriber SDK', () => {
    let kafka: MockKafka;
    let app: FullApp;
    const buses: EventBus[] = [];
    const publishers: Publisher[] = [];
    const subscribers: Subscriber[] = [];
    const prefix = `s-${Date.now()}.`;

    async function publish(topicPrefix: string, checkpoints: Checkpoints): Promise<Publisher> {
      const bus = kafkaBus({ brokers: kafka.brokers, clientId: 'publisher', topicPrefix }, log);
      buses.push(bus);
      const publisher = startPublisher({ eventStore: app.eventStore, checkpoints, parked: openSqliteParkedEvents(':memory:'), bus, log });
      publishers.push(publisher);
      return publisher;
    }

    function subscriber({
      groupId,
      topicPrefix,
      ...settings
    }: Partial<SubscriberSettings> & { groupId: string; topicPrefix?: string }): Subscriber {
      const s = createSubscriber({
        kafka: { brokers: kafka.brokers, groupId, topicPrefix: topicPrefix ?? prefix, sessionTimeout: 6000, heartbeatInterval: 300 },
        log,
        keys: app.keys,
        retry: { attempts: 3, initialDelayMs: 10, maxDelayMs: 50 },
        ...settings,
      });
      subscribers.push(s);
      return s;
    }

    beforeAll(async () => {
      kafka = await startMockKafka();
      app = await startFullApp();
      await publish(prefix, memoryCheckpoints());
    });
    afterAll(async () => {
      // Together: a Kafka consumer's disconnect waits out its fetch in flight (up to kafkajs's
      // maxWaitTimeInMs, 5 s), so ten in a row outlast the hook's bound on a busy machine.
      await Promise.all(subscribers.map((s) => s.stop().catch(() => {})));
      for (const p of publishers) await p.stop();
      for (const p of buses) await p.close();
      await app?.close();
      await kafka?.stop();
    });

    it('delivers a write to the handler, typed and checked', async () => {
      const seen: string[] = [];
      await subscriber({ groupId: 'reach' })
        .on('user:created', (event) => void seen.push(event.data.email ?? '(forgotten)'))
        .start();
      const email = `reach-${Date.now()}@example.com`;
      await app.write('POST', '/users', { name: 'Reach', email });
      await until(() => seen.includes(email), 'the handler to see the new user');
    });

    it('opens a name and address only while the person has a key; nothing on Kafka reads in clear', async () => {
      const email = `forget-${Date.now()}@example.com`;
      const { userId } = (await app.write('POST', '/users', { name: 'Forgettable Person', email })).body;
      const live: Array<{ email: string | null; withheld?: true }> = [];
      await subscriber({ groupId: 'without-keys', keys: undefined })
        .on(
          'user:created',
          (event) => void (event.data.userId === userId && live.push({ email: event.data.email, withheld: event.withheld })),
        )
        .start();
      await until(() => live.length > 0, 'a subscriber without keys to see the user');
      expect(live[0]).toEqual({ email: null, withheld: true });

      expect((await app.write('DELETE', `/users/${userId}`)).status).toBe(200);
      const later: Array<{ name: string | null; forgotten?: true }> = [];
      await subscriber({ groupId: `after-forgetting-${Date.now()}` })
        .on(
          'user:created',
          (event) => void (event.data.userId === userId && later.push({ name: event.data.name, forgotten: event.forgotten })),
        )
        .start();
      await until(() => later.length > 0, 'a new group to replay the user from the beginning');
      expect(later[0]).toEqual({ name: null, forgotten: true });
      const onTopic = await kcatRead(kafka.brokers, topicOf(prefix, 'user'));
      expect(onTopic.some((m) => m.key === userId)).toBe(true);
      expect(onTopic.filter((m) => m.payload.includes(email) || m.payload.includes('Forgettable'))).toEqual([]);
    });

    it('delivers at least once, and exactly once with dedupe, when the publisher dies after the ack', async () => {
      const dupPrefix = `dup-${Date.now()}.`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await app.write('POST', '/products', { name: `Dup ${i}`, price: { amount: 1, currency: 'EUR' } })).body.productId);
      const publisher = await publish(dupPrefix, memoryCheckpoints(1));
      await until(async () => publisher.position() >= (await app.eventStore.head()), 'the publisher to catch up');
      const onTopic = (await kcatRead(kafka.brokers, topicOf(dupPrefix, 'product'))).length;

      const plain = new Map<string, number>();
      const deduped = new Map<string, number>();
      let dedupedDeliveries = 0;
      const count = (map: Map<string, number>) => (event: { data: { productId: string } }) =>
        void map.set(event.data.productId, (map.get(event.data.productId) ?? 0) + 1);
      await subscriber({ groupId: 'plain', topicPrefix: dupPrefix }).on('product:created', count(plain)).start();
      await subscriber({ groupId: 'dedupe', topicPrefix: dupPrefix, dedupe: true, onDelivery: () => void dedupedDeliveries++ })
        .on('product:created', count(deduped))
        .start();
      await until(
        () => [...plain.values()].reduce((a, b) => a + b, 0) === onTopic && dedupedDeliveries === onTopic,
        'every message to be delivered',
      );
      for (const id of ids) {
        expect(plain.get(id)).toBeGreaterThanOrEqual(1);
        expect(deduped.get(id)).toBe(1);
      }
      expect(
        [...plain.values()].some((n) => n > 1),
        'the republished batch reached the plain subscriber twice',
      ).toBe(true);
    });

    it('splits partitions between two members of a group, and the survivor takes over', async () => {
      const a = new Set<string>();
      const b = new Set<string>();
      const record = (set: Set<string>) => (event: { data: { userId: string } }) => void set.add(event.data.userId);
      const first = subscriber({ groupId: 'split' }).on('user:created', record(a));
      const second = subscriber({ groupId: 'split' }).on('user:created', record(b));
      await first.start();
      await second.start();
      // Users keep coming until both members have had some: the partitions are split.
      const before: string[] = [];
      await until(
        async () => {
          for (let i = 0; i < 10; i++)
            before.push(
              (await app.write('POST', '/users', { name: 'S', email: `split-${before.length}-${Date.now()}@example.com` })).body.userId,
            );
          await until(() => before.every((id) => a.has(id) || b.has(id)), 'the group to receive every user');
          return before.some((id) => a.has(id)) && before.some((id) => b.has(id));
        },
        'both members to have had partitions',
        60_000,
      );

      await first.stop();
      const after: string[] = [];
      for (let i = 0; i < 40; i++)
        after.push((await app.write('POST', '/users', { name: 'T', email: `takeover-${i}-${Date.now()}@example.com` })).body.userId);
      await until(() => after.every((id) => b.has(id)), 'the survivor to receive every new user', 60_000);
    }, 180_000); // each rebalance of the mock cluster waits sessionTimeout - 1 s; above the two 60 s bounds, so they name what failed

    it('keeps each entity in order across 1,000 interleaved updates of 50 entities', async () => {
      const products = Array.from({ length: 50 }, () => newId());
      const revisions = new Map<string, number[]>(products.map((id) => [id, []]));
      await subscriber({ groupId: 'order' })
        .on('product:created', (event) => void revisions.get(event.data.productId)?.push(event.revision))
        .on('product:updated', (event) => void revisions.get(event.data.productId)?.push(event.revision))
        .start();
      const created = (productId: string): NewEvent => ({
        id: newId(),
        type: 'product:created',
        data: {
          productId,
          name: 'Ordered',
          description: '',
          price: { amount: 0, currency: 'EUR' },
          taxRate: null,
          sku: null,
          category: null,
          images: [],
        },
        metadata,
      });
      for (const id of products) await app.eventStore.append(`product-${id}`, [created(id)], { expectedRevision: 'no_stream' });
      for (let round = 1; round <= 20; round++) {
        await Promise.all(
          products.map((productId) =>
            app.eventStore.append(
              `product-${productId}`,
              [
                {
                  id: newId(),
                  type: 'product:updated',
                  data: { productId, changes: { price: { amount: round, currency: 'EUR' } } },
                  metadata,
                },
              ],
              { expectedRevision: round - 1 },
            ),
          ),
        );
      }
      await until(() => [...revisions.values()].every((r) => r.length === 21), 'all 1,050 events', 60_000);
      for (const r of revisions.values()) expect(r).toEqual(Array.from({ length: 21 }, (_, i) => i));
    });

    it('sends an event its handler keeps failing on to the dead-letter topic, and the rest keep flowing', async () => {
      const poison = (await app.write('POST', '/products', { name: 'Poison', price: { amount: 1, currency: 'EUR' } })).body.productId;
      const fine = (await app.write('POST', '/products', { name: 'Fine', price: { amount: 1, currency: 'EUR' } })).body.productId;
      const handled: string[] = [];
      await subscriber({ groupId: 'dlq' })
        .on('product:updated', (event) => {
          if (event.data.productId === poison) throw new Error('cannot handle this one');
          handled.push(event.data.productId);
        })
        .start();
      const bad = await app.write('PATCH', `/products/${poison}`, { name: 'Poison 2' });
      await app.write('PATCH', `/products/${fine}`, { name: 'Fine 2' });
      await app.write('PATCH', `/products/${poison}`, { name: 'Poison 3' });
      await app.write('PATCH', `/products/${fine}`, { name: 'Fine 3' });
      await until(() => handled.filter((id) => id === fine).length === 2, 'the other events to flow');
      const badEvent = (await app.eventStore.readStream(`product-${poison}`))[1]!;
      expect(badEvent.position).toBe(bad.position);
      await until(async () => (await kcatRead(kafka.brokers, `${topicOf(prefix, 'product')}.dead-letter`)).length >= 2, 'two dead letters');
      const letters = await kcatRead(kafka.brokers, `${topicOf(prefix, 'product')}.dead-letter`);
      const letter = letters.find((l) => l.headers['event-id'] === badEvent.id)!;
      expect(letter.headers['dead-letter-reason']).toContain('cannot handle this one');
      expect(letter.headers['dead-letter-attempts']).toBe('3');
      expect(letter.headers['dead-letter-group']).toBe('dlq');
      expect(JSON.parse(letter.payload)).toEqual(toEnvelope(badEvent));
    });

    it("lets the group's operator list its dead letters, retry one once fixed, and skip one saying why, with the SDK's command", async () => {
      const group = 'dlq-operated';
      const poison = (await app.write('POST', '/products', { name: 'Broken', price: { amount: 1, currency: 'EUR' } })).body.productId;
      let fixed = false;
      const handled: number[] = [];
      await subscriber({ groupId: group, dedupe: true })
        .on('product:updated', (event) => {
          if (event.data.productId === poison && !fixed) throw new Error('the mailer is down');
          if (event.data.productId === poison) handled.push(event.revision);
        })
        .start();
      await app.write('PATCH', `/products/${poison}`, { name: 'Broken 2' });
      await app.write('PATCH', `/products/${poison}`, { name: 'Broken 3' });
      const command = (...args: string[]) =>
        runCli('packages/sdk/src/dead-letters-cli.ts', [...args, '--group', group, '--prefix', prefix, '--by', 'ops'], {
          KAFKA_BROKERS: kafka.brokers.join(','),
        });
      // Another group's dead letters share the topic: this group's operator sees only its own.
      let open: Array<{ id: string; eventType: string; reason: string; attempts: number }> = [];
      await until(async () => {
        const listed = await command('list', '--json');
        open = listed.code === 0 ? JSON.parse(listed.output) : [];
        return open.length === 2;
      }, "the group's two dead letters listed");
      expect(open).toMatchObject([
        { eventType: 'product:updated', attempts: 3, reason: expect.stringContaining('the mailer is down') },
        { eventType: 'product:updated', attempts: 3 },
      ]);

      fixed = true;
      expect((await command('retry', open[0]!.id)).output).toContain('retried 1');
      // Handled again, though the subscriber had seen it (dedupe): its operator asked.
      await until(() => handled.includes(1), 'the retried dead letter handled');
      expect((await command('skip', open[1]!.id)).code).toBe(2);
      expect((await command('skip', open[1]!.id, '--reason', 'superseded by the next change')).output).toContain('skipped 1');
      expect((await command('list')).output).toContain(`no open dead letters for group ${group}`);
      const all = await command('list', '--all');
      expect(all.output).toMatch(/retried by ops/);
      expect(all.output).toMatch(/skipped by ops: superseded by the next change/);
      expect(handled).toEqual([1]);
      // Retrying what is no longer open is refused, naming it.
      const again = await command('retry', open[0]!.id);
      expect([again.code, again.output]).toEqual([
        1,
        expect.stringContaining(`no unresolved dead letter of group ${group} is ${open[0]!.id}`),
      ]);
    }, 180_000);
  });
}
