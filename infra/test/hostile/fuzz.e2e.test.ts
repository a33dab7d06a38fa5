// Every route, fuzzed with malformed and adversarial input (fuzz.ts): no answer is a 5xx, every
// refusal is a problem+json that names what was wrong, nothing secret is ever answered, and a
// refused request writes nothing to the event store. HOSTILE_RUNS sets how many requests
// (`npm run test:hostile` runs many more); HOSTILE_SEED replays a failing run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import { SESSION_COOKIE } from '@eventide/contract/resources/auth/schemas.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { rawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startFullApp, type FullApp } from '../full-app.ts';
import { requestsFor, send, violations, type Targets } from './fuzz.ts';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 1500);
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined;

let app: FullApp;
let targets: Targets;

beforeAll(async () => {
  // Cheap hashes: the fuzzer sends many sign-ins, and is about answers, not scrypt.
  app = await startFullApp({ collab: true, hasher: new PasswordHasher({ params: { logN: 10, r: 8, p: 1 } }) });
  const user = jsonClient(app.url);
  const me = await signUp(user);
  const others = await Promise.all(
    [1, 2, 3].map(
      async () =>
        (await app.request('POST', '/users', { name: 'Other', email: `other-${crypto.randomUUID()}@example.test` })).body.userId as string,
    ),
  );
  const products = await Promise.all(
    [1, 2].map(
      async (i) =>
        (await app.request('POST', '/products', { name: `Fuzzed ${i}`, price: { amount: 100 * i, currency: 'EUR' } })).body
          .productId as string,
    ),
  );
  const order = (await app.request('POST', '/orders', { userId: others[0], lines: [{ productId: products[0], quantity: 1 }] })).body
    .orderId as string;
  const editor = await rawClient(app.url, app.cookieHeader());
  editor.send({
    a: 'op',
    c: 'documents',
    d: 'fuzzed',
    v: 0,
    src: editor.id,
    seq: 1,
    create: { type: 'http://sharejs.org/types/rich-text/v1', data: [{ insert: 'text' }] },
  });
  await editor.reply((m) => m.a === 'op' && m.seq === 1, 'the fuzzed document');
  editor.socket.close();
  const sessionIds = [app.cookieHeader(), user.cookieHeader()].map(
    (c) => new RegExp(`${SESSION_COOKIE.replace('.', '\\.')}=([^;]+)`).exec(c)?.[1] ?? '',
  );
  targets = {
    users: others,
    products,
    orders: [order],
    documents: ['fuzzed'],
    cookies: [app.cookieHeader(), user.cookieHeader()],
    secrets: ['$scrypt$', app.admin.password, me.password, ...sessionIds],
  };
});
afterAll(() => app?.close());

describe('fuzzing every route', { timeout: 600_000 }, () => {
  it('answers malformed and adversarial requests with a 4xx naming the problem, never a 5xx, never a secret, and writes nothing for a refusal', async () => {
    const statuses = new Map<number, number>();
    const fuzzed = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestsFor(app.routes, targets), async (request) => {
        // The fuzzer's own sessions stay alive, so that it keeps reaching past the sign-in checks.
        if (/^\/auth\/(sign-out|password)/.test(request.path)) delete request.headers.cookie;
        const head = await app.eventStore.head();
        fuzzed.add(request.route);
        const answer = await send(app.url, request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const found = violations(request, answer, targets);
        if (answer.status >= 400 && (await app.eventStore.head()) !== head)
          found.push(`${request.method} ${request.path}: a refused request wrote events`);
        expect(found).toEqual([]);
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
    console.log(
      `fuzzed ${RUNS} requests: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}x${n}`)
        .join(' ')}`,
    );
    // Every route was tried, and the run reached past validation too, not only into refusals.
    expect(app.routes.map((r) => r.path).filter((path) => !fuzzed.has(path))).toEqual([]);
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  });
});
