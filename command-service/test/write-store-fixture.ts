// `node command-service/test/write-store-fixture.ts <directory>`: writes a small event store with
// every kind of public event, through the API as an admin uses it, and keeps its event and key
// files in <directory>. Each release that changes how events are written commits one
// (infra/test/fixtures/stores/), and every later release must read them all
// (infra/test/fixture-stores.e2e.test.ts): the store is never rewritten to change a schema.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './harness.ts';

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node command-service/test/write-store-fixture.ts <directory>');
  process.exit(2);
}
if (existsSync(join(out, 'events.db'))) {
  console.error(`${out} already holds a store: a fixture is written once, by the release it stands for`);
  process.exit(1);
}

/** What the fixture's reader checks it finds: written beside the store, as JSON. */
export interface FixtureFacts {
  users: { kept: string; renamed: string; erased: string };
  products: { changed: string; deleted: string; untouched: string };
  orders: { paid: string; deleted: string };
}

async function ok(app: TestApp, method: string, path: string, body?: unknown) {
  const reply = await app.request(method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-fixture-'));
const app = await startTestApp({ dataDir });
let closed = false;
try {
  const user = async (name: string) => (await ok(app, 'POST', '/users', { name, email: `${name.toLowerCase()}@example.test` })).userId;
  const kept = await user('Ada');
  const renamed = await user('Bob');
  const erased = await user('Cyd');
  await ok(app, 'PATCH', `/users/${renamed}`, { name: 'Robert' });
  await ok(app, 'DELETE', `/users/${erased}`);

  const product = async (name: string, amount: number) =>
    (await ok(app, 'POST', '/products', { name, description: `A ${name.toLowerCase()}`, price: { amount, currency: 'EUR' } })).productId;
  const changed = await product('Kettle', 2999);
  const deleted = await product('Toaster', 4500);
  const untouched = await product('Mug', 450);
  await ok(app, 'PATCH', `/products/${changed}`, { price: { amount: 2799, currency: 'EUR' }, category: 'Kitchen' });
  await ok(app, 'DELETE', `/products/${deleted}`);

  const order = async (lines: Array<{ productId: string; quantity: number }>) =>
    (await ok(app, 'POST', '/orders', { userId: kept, lines })).orderId;
  const paid = await order([{ productId: changed, quantity: 1 }]);
  await ok(app, 'PATCH', `/orders/${paid}`, {
    lines: [
      { productId: changed, quantity: 2 },
      { productId: untouched, quantity: 4 },
    ],
  });
  for (const status of ['placed', 'paid']) await ok(app, 'PATCH', `/orders/${paid}`, { status });
  const gone = await order([{ productId: untouched, quantity: 1 }]);
  await ok(app, 'DELETE', `/orders/${gone}`);

  const facts: FixtureFacts = {
    users: { kept, renamed, erased },
    products: { changed, deleted, untouched },
    orders: { paid, deleted: gone },
  };
  await app.close();
  closed = true;
  mkdirSync(out, { recursive: true });
  // The store of events and the keys that open their personal fields: the rest (read models,
  // sessions) is derived or disposable, and a later release builds it afresh.
  for (const file of ['events.db', 'keys.db']) copyFileSync(join(dataDir, file), join(out, file));
  writeFileSync(join(out, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
  console.log(`wrote ${out}: ${JSON.stringify(facts)}`);
} finally {
  if (!closed) await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
