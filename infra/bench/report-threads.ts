// The section of docs/benchmarks.md on reads over several threads (threads.ts): each read route
// on 1, 2, … threads against the raw floor on as many processes and as many threads of one, the
// two on one core each, the machine's own cores, and what a machine with more cores should expect,
// worked out from this run's own per-thread figures.
import { fmt, ratio } from './format.ts';
import { HEADING } from './headings.ts';
import { THREADS_NOTES } from './report-notes.ts';
import type { CoreSpeeds } from './cores.ts';
import type { Figure, ThreadScaling } from './threads.ts';

type Route = ThreadScaling['routes'][number];

/** Figures per count: the one at `count` ÷ the one at 1, in requests a second. */
const gainAt = (perCount: Figure[], counts: number[], count: number): number =>
  perCount[counts.indexOf(count)]!.requestsPerSecond / perCount[0]!.requestsPerSecond;

/** Ours on `count` threads ÷ ours on one, for a route. */
export const scalingOf = (route: Route, counts: number[], count: number): number => gainAt(route.perCount, counts, count);

/** The floor on `count` processes ÷ on one, for a route: what a server sharing nothing between its processes gained here. */
export const floorScalingOf = (route: Route, counts: number[], count: number): number => gainAt(route.floorPerCount, counts, count);

/** Requests a second per core's worth of the server's CPU; undefined where /proc could not tell. */
const perServerCore = ({ requestsPerSecond, cores }: Figure): number | undefined => cores && requestsPerSecond / cores.server;

/** Ours on `count` threads ÷ ours on one, each per core of CPU its process spent; undefined where /proc could not tell. */
export function scalingPerCoreOf(route: Route, counts: number[], count: number): number | undefined {
  const [many, one] = [perServerCore(route.perCount[counts.indexOf(count)]!), perServerCore(route.perCount[0]!)];
  return many && one && many / one;
}

/**
 * Ours on one thread ÷ the floor's one process, each per core of CPU it spent: from the figures
 * pinned to one core where there are some (the same core for both, so neither is judged on a
 * slower one), pair by pair (threads.ts says why), else from the free ones. Undefined where /proc
 * could not tell.
 */
export function floorPerCoreOf(route: Route): { ratio: number; pinned: boolean } | undefined {
  if (route.pinned?.perCore !== undefined) return { ratio: route.pinned.perCore, pinned: true };
  const [ours, floor] = route.pinned ? [route.pinned.ours, route.pinned.floor] : [route.perCount[0]!, route.floorPerCount[0]!];
  const [oursPerCore, floorPerCore] = [perServerCore(ours), perServerCore(floor)];
  return oursPerCore && floorPerCore ? { ratio: oursPerCore / floorPerCore, pinned: route.pinned !== undefined } : undefined;
}

/** Where the cores went, per route and count, ours and the floor's; nothing where /proc could not tell. */
function coresTable({ counts, routes }: ThreadScaling, cores: number): string[] {
  const many = (count: number, one: string, more: string) => `${count} ${count === 1 ? one : more}`;
  const rows = routes.flatMap((route) =>
    [
      ...route.perCount.map((figure, i) => ({ who: many(counts[i]!, 'thread', 'threads'), figure })),
      ...route.floorPerCount.map((figure, i) => ({ who: `floor, ${many(counts[i]!, 'process', 'processes')}`, figure })),
    ].map(({ who, figure }) => ({ route: route.route, who, figure })),
  );
  if (!rows.every((row) => row.figure.cores))
    return ['(/proc could not tell the CPU of the server or of wrk: no table of where the cores went.)', ''];
  return [
    `| route | server | /s | server's cores | wrk's cores | left of ${cores} | server µs of CPU a request |`,
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(({ route, who, figure }) => {
      const { server, generator, serverPerRequest } = figure.cores!;
      return `| ${route} | ${who} | ${fmt(figure.requestsPerSecond)} | ${server.toFixed(2)} | ${generator.toFixed(2)} | ${Math.max(0, cores - server - generator).toFixed(2)} | ${fmt(serverPerRequest)} |`;
    }),
    '',
  ];
}

/** The figures of ours on one thread and the floor's one process, each pinned to the same core, wrk to another. */
function pinnedTable(threads: ThreadScaling): string[] {
  if ('unavailable' in threads.pinning) return [`(No figures on one core each: ${threads.pinning.unavailable}.)`, ''];
  const { server, generator } = threads.pinning;
  const rows = threads.routes.filter((route) => route.pinned?.ours.cores && route.pinned.floor.cores);
  if (rows.length === 0) return ['(/proc could not tell the CPU of the pinned servers: no figures on one core each.)', ''];
  return [
    `Ours on one thread and the floor's one process, each in turn pinned to core ${server} with all its threads (taskset),`,
    `and wrk to core ${generator}: what each does with one core, on the same core. They are measured in pairs, a figure of`,
    "each seconds apart, the other free meanwhile; the figures are the medians over the rounds' pairs, and the last",
    "column the median of the pairs' ratios.",
    '',
    '| route | ours (/s) | floor (/s) | ours µs of CPU a request | floor µs | ours ÷ floor per core |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((route) => {
      const { ours, floor } = route.pinned!;
      return `| ${route.route} | ${fmt(ours.requestsPerSecond)} | ${fmt(floor.requestsPerSecond)} | ${fmt(ours.cores!.serverPerRequest)} | ${fmt(floor.cores!.serverPerRequest)} | ${ratio(floorPerCoreOf(route)!.ratio, 1)} |`;
    }),
    '',
  ];
}

/**
 * The floor as threads of one process against as many processes, in the same rounds: what sharing a
 * process costs a server that shares nothing else.
 */
function floorThreadsTable({ counts, routes }: ThreadScaling): string[] {
  const many = counts.slice(1);
  if (many.length === 0) return [];
  return [
    'The floor as as many threads of one process (servers/raw-reads-threads.ts: each thread with connections of its',
    'own to the files and a socket of its own on the port, as ours), in the same rounds. Threads of one process share',
    "SQLite's record of each file's locks and take its mutex to change it; processes each have their own.",
    '',
    `| route | ${many.map((c) => `floor, ${c} processes (/s) | floor, ${c} threads of 1 process (/s) | threads ÷ processes`).join(' | ')} |`,
    `|---|${many.map(() => '---:|---:|---:').join('|')}|`,
    ...routes.map((route) => {
      const cells = many.map((c, i) => {
        const processes = route.floorPerCount[counts.indexOf(c)]!.requestsPerSecond;
        const threaded = route.floorThreadsPerCount[i]!.requestsPerSecond;
        return `${fmt(processes)} | ${fmt(threaded)} | ${ratio(threaded, processes)}`;
      });
      return `| ${route.route} | ${cells.join(' | ')} |`;
    }),
    '',
  ];
}

/** What the machine's cores did alone and together, before the figures and after them. */
function coresOfMachine(threads: ThreadScaling): string[] {
  if (!threads.cores) return [];
  const line = (when: string, { alone, together, scaling }: CoreSpeeds) =>
    `| ${when} | ${alone.map((ns) => ns.toFixed(0)).join(' / ')} | ${together.map((ns) => ns.toFixed(0)).join(' / ')} | ${ratio(scaling, 1)} |`;
  return [
    "The machine's own cores: the same loop of integer arithmetic pinned to each core, alone in turn and then on",
    'all of them at once (nanoseconds of CPU an iteration, cores.ts). Their sum is the most any server could',
    'scale here with the load generator elsewhere: the cores of this machine are not always equal.',
    '',
    '| when | each core alone (ns) | all at once (ns) | all at once ÷ the fastest alone |',
    '|---|---:|---:|---:|',
    line('before the figures', threads.cores.before),
    line('after them', threads.cores.after),
    '',
  ];
}

/** What the shares say of 2 ÷ 1 on GET /api/products: was the machine's limit reached, and what each core did. */
function coresReading(threads: ThreadScaling, cores: number): string[] {
  const products = threads.routes[0]!;
  const [one, two] = [products.perCount[0]!.cores, products.perCount[threads.counts.indexOf(2)]!.cores];
  const perCore = scalingPerCoreOf(products, threads.counts, 2);
  if (!one || !two || perCore === undefined) return [];
  const left = cores - two.server - two.generator;
  // Every core wrk left to the server, each request costing what it did on one thread.
  const allowed = (cores - two.generator) / one.server;
  const floorTwo = floorScalingOf(products, threads.counts, 2);
  return [
    `On GET /api/products with two threads, the server spent ${two.server.toFixed(2)} cores and wrk ${two.generator.toFixed(2)}, of the ${cores}:`,
    left >= 0.2
      ? `${left.toFixed(2)} of a core was left, so the threads, not the machine, set 2 ÷ 1.`
      : floorTwo >= 1.6
        ? `no core was left, and yet the floor's two processes answered ${ratio(floorTwo, 1)} times its one on the same cores: two threads of ours gained less than two processes that share nothing.`
        : `no core was left, and the floor's two processes answered ${ratio(floorTwo, 1)} times its one: the machine, not only the threads, set 2 ÷ 1.`,
    `Had the server had every core wrk left, each request costing what it did on one thread, two threads would`,
    `have answered at most ${ratio(allowed, 1)} times one (${cores} − ${two.generator.toFixed(2)} cores ÷ ${one.server.toFixed(2)}).`,
    `With one thread the server spent ${one.server.toFixed(2)} cores (the request thread, and the followers', V8's and libuv's),`,
    `${fmt(one.serverPerRequest)} µs a request; with two, ${fmt(two.serverPerRequest)} µs. Per core the server spent, two threads`,
    `answered ${ratio(perCore, 1)} times what one did.`,
    '',
  ];
}

/**
 * What a machine with more cores should expect, from this run's per-request costs: where /proc told the
 * server's CPU a request, N cores over that cost (the load generator then has cores of its own); else
 * from the throughput, which on a machine the load generator shares says less.
 */
function biggerMachine(threads: ThreadScaling, cores: number, two: number): string[] {
  const products = threads.routes[0]!;
  const twoThreads = products.perCount[threads.counts.indexOf(2)]!;
  const why = [
    '**What a bigger machine should expect.** A read is answered whole on the thread that took its connection, on',
    "that thread's own SQLite connection (WAL: readers neither wait for each other nor for the writer), so reads add",
    'up across threads until the cores run out.',
  ];
  const writes = [
    `Writes stay on one thread whatever the cores: the ceiling of sign-ups is the writing thread's (${HEADING.signUps}),`,
    "and a read handed to it (a live stream, a session's own route) waits behind them.",
  ];
  if (!twoThreads.cores) {
    return [
      ...why,
      `Two threads gave ${ratio(two, 1)} times one, with the load generator on the same ${cores} cores; with the load from`,
      `elsewhere and N cores, the model is N × ${ratio(two / 2, 1)} × the one-thread figure (${fmt(products.perCount[0]!.requestsPerSecond)}/s).`,
      ...writes,
    ];
  }
  const cost = twoThreads.cores.serverPerRequest;
  const perCore = 1_000_000 / cost;
  return [
    ...why,
    `With two threads a page of products cost the server ${fmt(cost)} µs of CPU, all its threads together. With the load`,
    `from elsewhere and N cores, the model is N × 1,000,000 ÷ ${fmt(cost)}, about ${fmt(perCore)} a second for each core (8 cores:`,
    `${fmt(8 * perCore)}), less what the followers take when writes arrive, and less again if each thread added makes`,
    `each request dearer: per core spent, two threads answered ${ratio(scalingPerCoreOf(products, threads.counts, 2)!, 1)} times what one did.`,
    ...writes,
  ];
}

export function threadsSection(threads: ThreadScaling, cores: number): string[] {
  const heading = [`## ${HEADING.threads}`, ''];
  const { counts, routes } = threads;
  const most = counts[counts.length - 1]!;
  const products = routes[0]!;
  const two = scalingOf(products, counts, 2);
  const floorTwo = floorScalingOf(products, counts, 2);
  const perCore = floorPerCoreOf(products);
  const plural = (c: number) => (c === 1 ? '' : 's');
  return [
    ...heading,
    `\`npm start\` on the largest store with \`HTTP_THREADS\` = ${counts.join(', ')} in turn (${threads.rounds} rounds, each count in`,
    'each round, medians), and the raw floor (the same SELECTs, servers/raw-reads.ts) as as many processes sharing',
    'the port, in the same rounds: a server that shares nothing between its processes, for what this machine lets',
    `any server gain from more of them. The load is ${threads.load}; on this ${cores}-core machine the load generator`,
    'shares the cores with the server. Request threads answer the reads of the read models on connections of their',
    'own; everything else goes to the writing thread (docs/operations.md#request-threads). Each start is warmed up',
    'first, each route loaded as long as a figure times the number of threads: every thread compiles its own code',
    'from the share of the connections it gets.',
    '',
    `| route | note | ${counts.map((c) => `${c} thread${plural(c)} (/s)`).join(' | ')} | ${counts.map((c) => `p99 ${c} (ms)`).join(' | ')} | ${counts
      .slice(1)
      .map((c) => `${c} ÷ 1`)
      .join(' | ')} | ${counts.map((c) => `floor, ${c} process${c === 1 ? '' : 'es'} (/s)`).join(' | ')} | ${counts
      .slice(1)
      .map((c) => `floor ${c} ÷ 1`)
      .join(' | ')} | 1 thread ÷ floor |`,
    `|---|---|${[...counts, ...counts, ...counts.slice(1), ...counts, ...counts.slice(1)].map(() => '---:').join('|')}|---:|`,
    ...routes.map(
      (route) =>
        `| ${route.route} | ${route.note} | ${route.perCount.map((m) => fmt(m.requestsPerSecond)).join(' | ')} | ${route.perCount.map((m) => m.p99).join(' | ')} | ${counts
          .slice(1)
          .map((c) => ratio(scalingOf(route, counts, c), 1))
          .join(' | ')} | ${route.floorPerCount.map((m) => fmt(m.requestsPerSecond)).join(' | ')} | ${counts
          .slice(1)
          .map((c) => ratio(floorScalingOf(route, counts, c), 1))
          .join(' | ')} | ${ratio(route.perCount[0]!.requestsPerSecond, route.floorPerCount[0]!.requestsPerSecond)} |`,
    ),
    '',
    `**GET /api/products on 2 threads ÷ on 1: ${ratio(two, 1)}** (the target is 1.6 at least); the floor on 2 processes ÷ on 1:`,
    `${ratio(floorTwo, 1)}, so ours scaled ${ratio(two, floorTwo)} times as much as a server sharing nothing did on the same cores.`,
    '',
    ...floorThreadsTable(threads),
    ...coresOfMachine(threads),
    ...pinnedTable(threads),
    ...(perCore
      ? [
          `**GET /api/products on 1 thread ÷ the floor, per core each spent: ${ratio(perCore.ratio, 1)}**${perCore.pinned ? ', both on the same core' : ' (not pinned)'} (the target is 0.8 at least).`,
          '',
        ]
      : []),
    `Where the cores went in the free figures (medians over the rounds, from /proc: each process's CPU over the figure's`,
    'wall time, and the CPU per request answered; the floor on several processes all of them together):',
    '',
    ...coresTable(threads, cores),
    ...coresReading(threads, cores),
    ...biggerMachine(threads, cores, two),
    most > 2
      ? `With ${most} threads this run measured ${ratio(scalingOf(products, counts, most), 1)} times one.`
      : 'To be checked on a machine with more cores.',
    '',
    ...THREADS_NOTES,
  ];
}
