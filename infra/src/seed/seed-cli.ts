// `npm run seed -- --events N`: fills the stores of DATA_DIR (as `npm start` uses them) with a
// shop's history of about N events, then builds the read models from it. Refuses a store that
// already has events unless given --append.
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { openReadStore } from '@eventide/shared/read-store/open.ts';
import { rebuild } from '@eventide/projector/src/rebuild.ts';
import { seed } from './seed.ts';

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
const config = loadConfig({ SQLITE_SYNCHRONOUS: 'NORMAL', ...process.env });
const eventStore = openEventStore(config);
const readStore = await openReadStore(config);
const number = (n: number) => n.toLocaleString('en');
try {
  const before = await eventStore.store.head();
  if (before > 0 && !args.values.append) {
    fail(`${eventStore.description} already holds ${number(before)} events; give --append to add to them, or another DATA_DIR`);
  }
  console.log(`seeding ${eventStore.description} with about ${number(events)} events (seed ${seedNumber})`);
  const started = performance.now();
  const bar = new SingleBar({
    format: 'events   {bar} {percentage}% | {value}/{total} | {rate}/s | users {users} products {products} orders {orders}',
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  bar.start(events, 0, { rate: 0, users: 0, products: 0, orders: 0 });
  let shown = 0;
  const done = await seed({
    eventStore: eventStore.store,
    events,
    seed: seedNumber,
    onProgress(p) {
      if (p.events - shown < 500) return;
      shown = p.events;
      const rate = Math.round(p.events / ((performance.now() - started) / 1000));
      bar.update(Math.min(p.events, events), {
        rate: number(rate),
        users: number(p.users),
        products: number(p.products),
        orders: number(p.orders),
      });
    },
  });
  bar.update(Math.min(done.events, events));
  bar.stop();
  const seeded = (performance.now() - started) / 1000;

  const readModels = new SingleBar({
    format: 'read models {bar} {percentage}% | {value}/{total} | {rate}/s',
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  const rebuildStarted = performance.now();
  readModels.start(await eventStore.store.head(), 0, { rate: 0 });
  const rebuilt = await rebuild({
    eventStore: eventStore.store,
    readStore: readStore.store,
    onProgress: (p) => {
      readModels.setTotal(p.head);
      readModels.update(p.position, { rate: number(p.eventsPerSecond) });
    },
  });
  readModels.stop();
  const rebuilding = (performance.now() - rebuildStarted) / 1000;

  console.log(
    [
      `done: ${number(done.events)} events (${number(done.users)} users, ${number(done.products)} products, ${number(done.orders)} orders)`,
      `  appended in ${seeded.toFixed(1)} s (${number(Math.round(done.events / seeded))} events/s), read models built in ${rebuilding.toFixed(1)} s (${number(rebuilt.events)} events replayed into generation ${rebuilt.generation})`,
      `  the event store now holds ${number(await eventStore.store.head())} events; npm start serves them`,
    ].join('\n'),
  );
} finally {
  await readStore.store.close();
  await eventStore.store.close();
}
