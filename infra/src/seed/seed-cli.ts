// `npm run seed -- --events N`: fills the stores of DATA_DIR (as `npm start` uses them) with a
// shop's history of about N events, and builds the read models from it on a second thread as
// the events are appended. Refuses a store that already has events unless given --append.
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { MultiBar } from 'cli-progress';
import { writeSide } from '@eventide/command-service/src/write-side.ts';
import { openAuth } from '@eventide/platform/auth/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { openReadModels } from '@eventide/stores/read-models/open.ts';
import { openImageStore } from '@eventide/stores/image-store/open.ts';
import { READ_MODELS_CHECKPOINT } from '@eventide/stores/read-store/port.ts';
import { seed } from './seed.ts';
import type { FromReadModels, ToReadModels } from './read-models-worker.ts';

const USAGE = 'usage: npm run seed -- --events <how many, e.g. 1000000> [--seed <number>] [--append]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let args: ReturnType<typeof parseArgs<{ options: { events: { type: 'string' }; seed: { type: 'string' }; append: { type: 'boolean' } } }>>;
try {
  args = parseArgs({ options: { events: { type: 'string' }, seed: { type: 'string' }, append: { type: 'boolean' } } });
} catch (error) {
  fail((error as Error).message);
}
const events = Number(args.values.events);
if (args.values.events === undefined || !Number.isSafeInteger(events) || events < 1) fail('--events must be a whole number of 1 or more');
const seedNumber = args.values.seed === undefined ? 1 : Number(args.values.seed);
if (!Number.isSafeInteger(seedNumber)) fail('--seed must be a whole number');

// A bulk load commits with synchronous=NORMAL unless told otherwise: a crash of the seed itself
// may lose its last commits (run it again), never the store.
const environment = { SQLITE_SYNCHRONOUS: 'NORMAL', ...process.env };
const config = loadConfig(environment);
const eventStore = await openEventStore(config);
// The write side's use cases run with the service's sessions and limits, as the admin command line's do.
const auth = await openAuth(config);
const images = await openImageStore(config);
/** How many of the newest products get a picture: the shop's first pages look like a shop's. */
const PICTURED = 48;
const number = (n: number) => n.toLocaleString('en');
const seconds = (since: number) => (performance.now() - since) / 1000;
let readModels: ReturnType<typeof buildReadModels> | undefined;
try {
  const before = await eventStore.store.head();
  if (before > 0 && !args.values.append) {
    fail(`${eventStore.description} already holds ${number(before)} events; give --append to add to them, or another DATA_DIR`);
  }
  const readStore = await openReadModels(config);
  const built = await readStore.store.servedCheckpoint(READ_MODELS_CHECKPOINT);
  await readStore.store.close();
  if (built > before) {
    fail(
      `${readStore.description} holds read models of ${number(built)} events, more than the event store has: it belongs to another event store`,
    );
  }
  console.log(`seeding ${eventStore.description} with about ${number(events)} events (seed ${seedNumber})`);
  const started = performance.now();
  const bars = new MultiBar({ noTTYOutput: true, notTTYSchedule: 5000, hideCursor: true });
  const appended = bars.create(
    events,
    0,
    { rate: 0, users: 0, products: 0, orders: 0 },
    {
      format: 'events      {bar} {percentage}% | {value}/{total} | {rate}/s | users {users} products {products} orders {orders}',
    },
  );
  const projected = bars.create(events, 0, { rate: 0 }, { format: 'read models {bar} {percentage}% | {value}/{total} | {rate}/s' });
  readModels = buildReadModels(environment, before, (position) =>
    projected.update(position - before, { rate: number(Math.round((position - before) / seconds(started))) }),
  );
  let shown = 0;
  const done = await seed({
    writes: writeSide({
      config,
      store: eventStore.store,
      keys: eventStore.keys,
      auth: { sessions: auth.sessions.store, limiters: auth.limiters },
    }),
    events,
    seed: seedNumber,
    pictures: { store: images.store, count: PICTURED },
    onProgress(p) {
      if (p.events - shown < 500) return;
      shown = p.events;
      appended.update(Math.min(p.events, events), {
        rate: number(Math.round(p.events / seconds(started))),
        users: number(p.users),
        products: number(p.products),
        orders: number(p.orders),
      });
    },
  });
  const head = await eventStore.store.head();
  appended.setTotal(head - before);
  appended.update(head - before);
  projected.setTotal(head - before);
  const seeded = seconds(started);
  await readModels.until(head);
  bars.stop();
  const total = seconds(started);

  console.log(
    [
      `done: ${number(done.events)} events (${number(done.users)} users, ${number(done.products)} products, ${number(done.orders)} orders) in ${total.toFixed(1)} s`,
      `  appended in ${seeded.toFixed(1)} s (${number(Math.round(done.events / seeded))} events/s); the read models, built meanwhile, caught up ${(total - seeded).toFixed(1)} s later`,
      `  the event store now holds ${number(head)} events; npm start serves them`,
    ].join('\n'),
  );
} finally {
  // After a failed append the thread would otherwise keep the process alive.
  await readModels?.stop();
  await eventStore.store.close();
  await images.store.close();
  await auth.close();
}

/**
 * Starts the projector on a thread of its own (read-models-worker.ts), following from `after`.
 * `until(head)` resolves once the read models have reached `head` and the thread has closed its stores.
 */
function buildReadModels(environment: Record<string, string | undefined>, after: number, onPosition: (position: number) => void) {
  const worker = new Worker(new URL('./read-models-worker.ts', import.meta.url), { workerData: environment });
  const finished = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromReadModels) => {
      if ('done' in message) resolve();
      else onPosition(message.position);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the read models' thread stopped (exit code ${code}) before it caught up`)));
  });
  // Failing before the seed asks for them must not go unhandled; until() reports it.
  finished.catch(() => undefined);
  onPosition(after);
  return {
    async until(head: number) {
      worker.postMessage({ until: head } satisfies ToReadModels);
      await finished;
    },
    /** Ends the thread if it is still running; its open transaction, if any, rolls back. */
    async stop() {
      await worker.terminate();
    },
  };
}
