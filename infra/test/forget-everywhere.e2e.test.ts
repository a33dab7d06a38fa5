// Issue 15's whole promise, end to end: a user with an order and a document, followed over
// server-sent events and Kafka (librdkafka's mock cluster), is deleted; afterwards their name and
// address are in no file and no log line, `npm run rebuild` brings none back, every subscriber
// replaying the log is told they were forgotten, their order remains without anything personal,
// and their address is free for a new sign-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEditor, openText, settled, textOf } from '@eventide/testing/collab/editor-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { createLogger } from '@eventide/kernel/log.ts';
import { createSubscriber, type Subscriber } from '@eventide/sdk/subscriber.ts';
import { kcatAvailable, kcatRead, startMockKafka, type MockKafka } from '@eventide/testing/mock-kafka.ts';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { until } from '@eventide/testing/wait.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { runCli } from './process.ts';

const quiet = createLogger({ level: 'silent' });
const withKafka = kcatAvailable();
if (!withKafka) console.warn('SKIPPED: the Kafka half of the forgetting e2e test: kcat is not installed (apt-get install -y kcat)');

let kafka: MockKafka | undefined;
let app: FullApp;
// Every log line the services write, at the most talkative level, to look for the person in.
const logged = capturedLog('trace');
const subscribers: Subscriber[] = [];
const prefix = `forget-${Date.now()}.`;

beforeAll(async () => {
  kafka = withKafka ? await startMockKafka() : undefined;
  app = await startFullApp({
    collab: true,
    log: logged.log,
    env: kafka ? { KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: prefix } : {},
  });
});
afterAll(async () => {
  // Together: a Kafka consumer's disconnect waits out its fetch in flight (up to kafkajs's
  // maxWaitTimeInMs, 5 s), so ten in a row outlast the hook's bound on a busy machine.
  await Promise.all(subscribers.map((s) => s.stop().catch(() => {})));
  await app?.close();
  await kafka?.stop();
});

interface Seen {
  type: string;
  email: string | null | undefined;
  forgotten: boolean;
}

/** A subscriber of the user's events: over SSE with the admin's session, or over Kafka with the keys. */
function follow(over: 'sse' | 'kafka', userId: string, seen: Seen[]): Subscriber {
  const transport =
    over === 'sse'
      ? { http: { url: app.url, headers: { cookie: app.cookieHeader() } } }
      : {
          kafka: { brokers: kafka!.brokers, groupId: `g-${newId()}`, topicPrefix: prefix, sessionTimeout: 6000, heartbeatInterval: 300 },
          keys: app.keys,
        };
  const record = (event: { type: string; data: { userId: string; email?: string | null }; forgotten?: true }) =>
    void (event.data.userId === userId && seen.push({ type: event.type, email: event.data.email, forgotten: event.forgotten === true }));
  const subscriber = createSubscriber({ ...transport, log: quiet })
    .on('user:created', record)
    .on('user:deleted', record);
  subscribers.push(subscriber);
  return subscriber;
}

describe('deleting a user forgets them everywhere', () => {
  it('leaves nothing to find, tells every subscriber, keeps their order, and frees their address', async () => {
    const transports = withKafka ? (['sse', 'kafka'] as const) : (['sse'] as const);
    const name = `Philippa Forgettington ${newId().slice(-6)}`;
    const email = `pf-${newId().slice(-8)}@example.test`;
    const person = app.anonymous();
    const { userId } = await signUp(person, { name, email });
    const product = await app.write('POST', '/products', { name: 'A kettle to remember', price: { amount: 999, currency: 'EUR' } });
    const order = await person.request('POST', '/orders', { userId, lines: [{ productId: product.body.productId, quantity: 1 }] });
    expect(order.status).toBe(201);
    const document = await person.request('POST', '/collab/documents', { title: 'Shopping list' });
    const editor = await connectEditor(app.url, person.cookieHeader());
    const doc = await openText(editor.doc(document.body.id));
    doc.submitOp([{ insert: 'kettle, tea' }]);
    await until(() => settled(doc) && textOf(doc) === 'kettle, tea', 'the document saved');
    editor.close();

    // Subscribed before: they read the person while the person is there.
    const before = new Map(transports.map((t) => [t, [] as Seen[]]));
    for (const t of transports) await follow(t, userId, before.get(t)!).start();
    for (const t of transports) await until(() => before.get(t)!.some((s) => s.email === email), `${t}: the new user read in full`);

    const deleted = await person.request('DELETE', `/users/${userId}`);
    expect(deleted.status).toBe(200);
    const deletedAt = Number(deleted.headers.get('event-position'));
    for (const t of transports) await until(() => before.get(t)!.some((s) => s.type === 'user:deleted'), `${t}: the deletion delivered`);
    await until(() => app.projector.position() >= deletedAt, 'the read models reached the deletion');

    // Subscribed after, replaying from the beginning: the person reads as forgotten.
    for (const t of transports) {
      const after: Seen[] = [];
      await follow(t, userId, after).start();
      await until(() => after.length >= 2, `${t}: the replay of the user's events`);
      expect(after, t).toEqual([
        { type: 'user:created', email: null, forgotten: true },
        { type: 'user:deleted', email: undefined, forgotten: false },
      ]);
    }
    if (kafka) {
      const onTopic = await kcatRead(kafka.brokers, `${prefix}user`);
      expect(onTopic.filter((m) => m.key === userId).length).toBeGreaterThanOrEqual(2);
      expect(onTopic.filter((m) => m.payload.includes(email) || m.payload.includes(name))).toEqual([]);
    }

    // The order stays, and says nothing of them but their id.
    const kept = await app.request('GET', `/orders/${order.body.orderId}`);
    expect(kept.status).toBe(200);
    expect(kept.body.userId).toBe(userId);
    expect(JSON.stringify(kept.body)).not.toMatch(new RegExp(`${email}|${name}`));

    for (const text of [name, email]) expect(await app.placesHolding(text), text).toEqual([]);

    // npm run rebuild, as an operator runs it beside the running service.
    const rebuilt = await runCli('projector/src/rebuild-cli.ts', [], { ...app.storeEnv, LOG_LEVEL: 'info' });
    expect(rebuilt.code, rebuilt.output).toBe(0);
    expect(rebuilt.output).toContain('rebuild: done');
    expect(rebuilt.output).not.toContain(email);
    const row = await app.readStore.get('users', userId);
    expect(row?.fields).toMatchObject({ status: 'deleted', name: null, email: null });
    for (const text of [name, email]) expect(await app.placesHolding(text), `${text} after the rebuild`).toEqual([]);
    expect(logged.text()).toContain(userId); // the log was written, and is worth searching
    for (const text of [name, email]) expect(logged.text().includes(text), `${text} in the log`).toBe(false);

    // The address is free for someone new at once.
    const newcomer = app.anonymous();
    expect((await signUp(newcomer, { email })).userId).not.toBe(userId);
  }, 240_000);
});
