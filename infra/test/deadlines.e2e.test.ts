// The payment deadline across processes, killed and restarted, with the clock the test controls
// (TEST_CLOCK_FILE): an order placed and not paid is cancelled once, by the system, saying why, in
// the API, its history and on Kafka; a paid one never is. Two processes run the deadlines (the
// combined one and a second command service), both woken by the same move of the clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '@eventide/kernel/clock.ts';
import { topicOf } from '@eventide/kernel/events/on-the-wire.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { kcatAvailable, kcatRead, startMockKafka, type KcatMessage, type MockKafka } from '@eventide/testing/mock-kafka.ts';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { until } from '@eventide/testing/wait.ts';
import { ENTRY, grantAdmin, lastLines, startService, type RunningService } from './process.ts';

const MINUTE = 60_000;
const noKcat = kcatAvailable() ? undefined : 'kcat is not installed (Debian: apt-get install kcat)';
if (noKcat) console.warn(`SKIPPED: the payment deadline across processes and Kafka: ${noKcat}`);

describe.skipIf(noKcat)('the payment deadline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-deadlines-'));
  const clockFile = join(dir, 'clock');
  let kafka: MockKafka;
  let env: Record<string, string>;
  let all: RunningService;
  let second: RunningService;
  let admin: JsonClient;
  let customer: JsonClient & { userId: string };
  let productId: string;

  beforeAll(async () => {
    kafka = await startMockKafka();
    env = {
      DATA_DIR: dir,
      TEST_CLOCK_FILE: clockFile,
      PAYMENT_WINDOW_SECONDS: '3600',
      PAYMENT_REMINDER_SECONDS: '600',
      KAFKA_BROKERS: kafka.brokers.join(','),
    };
    all = await startService(env, ENTRY.all);
    second = await startService(env, ENTRY.command);
    admin = jsonClient(all.url);
    const ops = await signUp(admin);
    await grantAdmin({ DATA_DIR: dir }, ops.email);
    await signInWithPassword(admin, ops.email, ops.password);
    const shopper = jsonClient(all.url);
    customer = Object.assign(shopper, await signUp(shopper));
    const product = await admin.request('POST', '/products', { name: 'Kettle', price: { amount: 2500, currency: 'EUR' } });
    expect(product.status).toBe(201);
    productId = product.body.productId;
  });
  afterAll(async () => {
    await Promise.all([all, second].map((s) => s?.stop()));
    await kafka?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function placedOrder(): Promise<string> {
    const created = await customer.request('POST', '/orders', { userId: customer.userId, lines: [{ productId, quantity: 1 }] });
    expect(created.status).toBe(201);
    const placed = await customer.request('PATCH', `/orders/${created.body.orderId}`, { status: 'placed' });
    expect(placed.status).toBe(200);
    return created.body.orderId;
  }

  async function pending(): Promise<Array<{ subject: string; next: string }>> {
    const reply = await admin.request('GET', '/admin/deadlines?limit=100');
    expect(reply.status).toBe(200);
    return reply.body.items;
  }

  const statusOf = async (orderId: string) => (await admin.request('GET', `/orders/${orderId}`)).body.status as string;

  async function orderMessages(orderId: string, enough: (messages: KcatMessage[]) => boolean): Promise<KcatMessage[]> {
    let messages: KcatMessage[] = [];
    await until(
      async () => {
        try {
          messages = (await kcatRead(kafka.brokers, topicOf('eventide.', 'order'))).filter((m) => m.key === orderId);
        } catch {
          return false; // kcat gives up on a broker slow to answer: read again
        }
        return enough(messages);
      },
      () => `the order's messages on Kafka; seen: ${messages.map((m) => m.payload).join('\n')}`,
    );
    return messages;
  }

  it('cancels an unpaid order once, across a SIGKILL and two processes, and never a paid one', async () => {
    const unpaid = await placedOrder();
    const paid = await placedOrder();
    expect((await admin.request('PATCH', `/orders/${paid}`, { status: 'paid' })).status).toBe(200);
    await until(async () => {
      const rows = await pending();
      return rows.some((r) => r.subject === unpaid && r.next === 'remind') && !rows.some((r) => r.subject === paid);
    }, 'the unpaid order to have a deadline, and the paid one none');

    // Into the reminder's time: the reminder is recorded, the deadline is still ahead.
    setClockOffset(clockFile, 52 * MINUTE);
    await until(async () => (await pending()).some((r) => r.subject === unpaid && r.next === 'expire'), 'the reminder to be sent');
    expect(await statusOf(unpaid)).toBe('placed');

    // Killed with the deadline pending, and started again where it listened.
    await all.kill();
    all = await startService({ ...env, PORT: new URL(all.url).port }, ENTRY.all);

    // Past the deadline: both processes wake and race for it.
    setClockOffset(clockFile, 61 * MINUTE);
    await until(
      async () => (await statusOf(unpaid)) === 'cancelled',
      () => `the unpaid order to be cancelled; the processes wrote:\n${lastLines(all.output())}\n${lastLines(second.output())}`,
    );
    await until(async () => (await pending()).length === 0, 'no deadline left pending');

    const history = (await admin.request('GET', `/orders/${unpaid}/history?limit=100`)).body.items as Array<Record<string, any>>;
    const cancellations = history.filter((entry) =>
      entry.changes.some((c: { field: string; after: unknown }) => c.field === 'status' && c.after === 'cancelled'),
    );
    expect(cancellations).toHaveLength(1);
    expect(cancellations[0]).toMatchObject({
      actor: { type: 'system', name: 'payment-deadline' },
      reason: 'not paid within 1 h of being placed (the payment deadline)',
    });

    const messages = await orderMessages(unpaid, (seen) => seen.some((m) => m.payload.includes('"cancelled"')));
    const cancelledOnKafka = messages.map((m) => JSON.parse(m.payload)).filter((e) => e.data.changes?.status === 'cancelled');
    expect(cancelledOnKafka).toHaveLength(1);
    expect(cancelledOnKafka[0].metadata).toMatchObject({
      actor: { type: 'system', name: 'payment-deadline' },
      reason: expect.stringMatching(/^not paid/),
    });

    // The deadline's own record: set, reminded, expired, cleared, each once.
    const stream = await admin.request('GET', `/admin/streams/payment-deadline-${unpaid}/events?limit=100`);
    expect(stream.status).toBe(200);
    expect(stream.body.items.map((e: { type: string }) => e.type)).toEqual([
      'payment-deadline:set',
      'payment-deadline:reminded',
      'payment-deadline:expired',
      'payment-deadline:cleared',
    ]);

    expect(await statusOf(paid)).toBe('paid');
    const paidHistory = (await admin.request('GET', `/orders/${paid}/history?limit=100`)).body.items as Array<{ actor: { type: string } }>;
    expect(paidHistory.filter((entry) => entry.actor.type === 'system')).toEqual([]);
  });
});
