// Issue 60: expensive reads on a budget. One customer looping history pages and as-of reads of
// their own long order, and resuming /changes from the start of the log, made everyone else's
// reads up to 8 times slower: nothing limited reads. Each client's reads now spend a budget of the
// server's time (RATE_LIMIT_READ_MS_PER_SECOND): past it they wait their turn, and once that is
// more than a second away they are refused with 429 and Retry-After; another client's reads are
// answered as before.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '@eventide/testing/sign-in.ts';
import { until } from '@eventide/testing/wait.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { startTarget, type HostileTarget } from './service.ts';

/** Changes to the one order: its history, its as-of reads and a resume from the start read them all. */
const CHANGES = Number(process.env.HOSTILE_ORDER_CHANGES ?? 1500);
const LOOPS = 8;
const SAMPLES = 60;

let target: HostileTarget;
beforeAll(async () => {
  // The tests' own processes read with the budget off (TEST_ENV): here it is as it ships.
  target = await startTarget({ RATE_LIMIT_READ_MS_PER_SECOND: String(loadConfig({}).RATE_LIMIT_READ_MS_PER_SECOND) });
});
afterAll(() => target?.close());

/** The process's CPU time so far, user and system, in milliseconds (Linux /proc; 100 ticks a second). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds of each of `count` reads of a page of products by a client at another address. */
async function otherClient(count: number): Promise<{ times: number[]; statuses: number[] }> {
  const times: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const answer = await fetch(`${target.url}/api/products?limit=20`, { headers: { 'X-Forwarded-For': '203.0.113.50' } });
    await answer.arrayBuffer();
    times.push(performance.now() - start);
    statuses.push(answer.status);
  }
  return { times, statuses };
}

describe('reads on a budget', { timeout: 300_000 }, () => {
  it('refuse a client looping costly reads with 429 and Retry-After, and another client is answered meanwhile', async () => {
    const admin = await target.admin();
    const product = (await admin.request('POST', '/products', { name: 'Pot', price: { amount: 1000, currency: 'EUR' } })).body.productId;
    const buyer = await signedInUser(target.url);
    const order = await buyer.request('POST', '/orders', { userId: buyer.userId, lines: [{ productId: product, quantity: 1 }] });
    expect(order.status).toBe(201);
    const orderPath = `/orders/${order.body.orderId}`;
    const first = Number(order.headers.get('event-position'));
    for (let i = 2; i <= CHANGES; i++) {
      const changed = await buyer.request('PATCH', orderPath, { lines: [{ productId: product, quantity: i }] });
      expect(changed.status).toBe(200);
    }
    const last = Number((await buyer.request('GET', orderPath)).headers.get('event-position') ?? first + CHANGES);

    const before = await otherClient(SAMPLES);

    const seen = new Map<number, number>();
    const retryAfter = new Set<string | null>();
    let looping = true;
    const count = (status: number) => seen.set(status, (seen.get(status) ?? 0) + 1);
    const cookie = buyer.cookieHeader();
    const reads = [
      () => `${orderPath}/history?limit=100`,
      () => `${orderPath}?at=${first + Math.floor(Math.random() * (last - first))}`,
      () => '/changes?after=1',
    ];
    const loop = async (index: number) => {
      while (looping) {
        const path = reads[index % reads.length]!();
        const controller = new AbortController();
        const answer = await fetch(`${target.url}${path}`, { headers: { cookie }, signal: controller.signal });
        count(answer.status);
        if (answer.status === 429) retryAfter.add(answer.headers.get('retry-after'));
        if (path.startsWith('/changes') && answer.status === 200) {
          // Until the stream says where it stands (it has caught up), then away.
          const reader = answer.body!.getReader();
          let text = '';
          while (!text.includes('event: ready')) {
            const { value, done } = await reader.read();
            if (done) break;
            text += new TextDecoder().decode(value);
          }
          controller.abort();
        } else {
          await answer.arrayBuffer();
        }
      }
    };
    const cpuBefore = cpuMs(target.child.pid!);
    const attackStarted = performance.now();
    const loops = Array.from({ length: LOOPS }, (_, i) =>
      loop(i).catch((error: Error) => (error.name === 'AbortError' || !looping ? undefined : Promise.reject(error))),
    );
    // The other client reads while the looper spends its budget, runs into it and is refused.
    const during: { times: number[]; statuses: number[] } = { times: [], statuses: [] };
    await until(
      async () => {
        const sample = await otherClient(SAMPLES / 6);
        during.times.push(...sample.times);
        during.statuses.push(...sample.statuses);
        return (seen.get(429) ?? 0) >= 1 && during.times.length >= 4 * SAMPLES;
      },
      () => `the looping client refused (${JSON.stringify(Object.fromEntries(seen))})`,
      120_000,
    );
    looping = false;
    const share = (cpuMs(target.child.pid!) - cpuBefore) / (performance.now() - attackStarted);
    await Promise.all(loops);

    console.log(
      `read budget: ${CHANGES} changes to one order, ${LOOPS} loops of its history, as-of reads and /changes from the start: ${JSON.stringify(Object.fromEntries(seen))}; ` +
        `another client's p50 ${median(before.times).toFixed(1)} ms before, ${median(during.times).toFixed(1)} ms during (${(median(during.times) / median(before.times)).toFixed(2)}x); the server's CPU ${(share * 100).toFixed(0)}% of a core meanwhile`,
    );
    expect(seen.get(429) ?? 0).toBeGreaterThan(0);
    expect(
      [...retryAfter].every((seconds) => Number(seconds) >= 1),
      [...retryAfter].join(),
    ).toBe(true);
    expect(
      [...seen.keys()].every((status) => status === 200 || status === 429),
      [...seen.keys()].join(),
    ).toBe(true);
    expect(
      during.statuses.every((status) => status === 200),
      during.statuses.join(),
    ).toBe(true);
  });
});
