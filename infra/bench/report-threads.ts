// The section of docs/benchmarks.md on reads over several threads (threads.ts): each read route
// on 1, 2, … threads against the raw floor on one, and what a machine with more cores should
// expect, worked out from this run's own per-thread figures.
import { fmt, ratio } from './format.ts';
import { HEADING } from './headings.ts';
import type { ThreadScaling } from './threads.ts';

/** Ours on `count` threads ÷ ours on one, for a route. */
export function scalingOf(route: ThreadScaling['routes'][number], counts: number[], count: number): number {
  return route.perCount[counts.indexOf(count)]!.requestsPerSecond / route.perCount[0]!.requestsPerSecond;
}

export function threadsSection(threads: ThreadScaling, cores: number): string[] {
  const heading = [`## ${HEADING.threads}`, ''];
  const { counts, routes } = threads;
  const most = counts[counts.length - 1]!;
  const products = routes[0]!;
  const two = scalingOf(products, counts, 2);
  const perThreadCost = 1000 / products.perCount[0]!.requestsPerSecond;
  return [
    ...heading,
    `\`npm start\` on the largest store with \`HTTP_THREADS\` = ${counts.join(', ')} in turn (${threads.rounds} rounds, each count in`,
    'each round, medians), and the raw floor (one thread, the same SELECTs) in the same rounds. The load is',
    `${threads.load}; on this ${cores}-core machine the load generator shares the cores with the server. Request threads`,
    'answer the reads of the read models on connections of their own; everything else goes to the writing thread',
    '(docs/operations.md#request-threads). Each start is warmed up first, each route loaded as long as a figure times',
    'the number of threads: every thread compiles its own code from the share of the connections it gets.',
    '',
    `| route | note | ${counts.map((c) => `${c} thread${c === 1 ? '' : 's'} (/s)`).join(' | ')} | ${counts.map((c) => `p99 ${c} (ms)`).join(' | ')} | ${counts
      .slice(1)
      .map((c) => `${c} ÷ 1`)
      .join(' | ')} | floor (/s) | 1 thread ÷ floor |`,
    `|---|---|${counts.map(() => '---:').join('|')}|${counts.map(() => '---:').join('|')}|${counts
      .slice(1)
      .map(() => '---:')
      .join('|')}|---:|---:|`,
    ...routes.map(
      (route) =>
        `| ${route.route} | ${route.note} | ${route.perCount.map((m) => fmt(m.requestsPerSecond)).join(' | ')} | ${route.perCount.map((m) => m.p99).join(' | ')} | ${counts
          .slice(1)
          .map((c) => ratio(scalingOf(route, counts, c), 1))
          .join(
            ' | ',
          )} | ${fmt(route.floor.requestsPerSecond)} | ${ratio(route.perCount[0]!.requestsPerSecond, route.floor.requestsPerSecond)} |`,
    ),
    '',
    `**GET /api/products on 2 threads ÷ on 1: ${ratio(two, 1)}** (the target is 1.6 at least).`,
    '',
    '**What a bigger machine should expect.** A read is answered whole on the thread that took its connection, on',
    "that thread's own SQLite connection (WAL: readers neither wait for each other nor for the writer), so reads add",
    `up across threads until the cores run out. On one thread here a page of products costs ${perThreadCost.toFixed(2)} ms of a core`,
    `end to end; two threads gave ${ratio(two, 1)} times one, that is ${ratio(two / 2, 1)} of each added thread's worth, with the load`,
    `generator on the same ${cores} cores. With the load from elsewhere and N cores, the model is N × ${ratio(two / 2, 1)} × the one-thread`,
    `figure for N up to the cores less one for the followers when writes arrive (about ${fmt(products.perCount[0]!.requestsPerSecond * (two / 2))} more a second for each core`,
    `at this size). Writes stay on one thread whatever the cores: the ceiling of sign-ups is the writing thread's`,
    `(${HEADING.signUps}), and a read handed to it (a live stream, a session's own route) waits behind them.`,
    most > 2
      ? `With ${most} threads this run measured ${ratio(scalingOf(products, counts, most), 1)} times one.`
      : 'To be checked on a machine with more cores.',
    '',
  ];
}
