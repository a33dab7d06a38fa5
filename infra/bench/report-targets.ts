// The head of docs/benchmarks.md: the performance targets (issue 14) against this run's own figures,
// each met or not, so that a reader sees where the service stands before the tables that say why.
import type { EventStoreResults } from './event-store.ts';
import { fmt, ratio } from './format.ts';
import type { benchGrowth, SizesCompared } from './growth.ts';
import type { benchHttp } from './http.ts';
import type { benchLongStreams } from './long-streams.ts';
import { growthOf } from './report-growth.ts';

/** The figures of a run (report.ts's BenchRun) that the targets are about. */
export interface TargetFigures {
  stores: EventStoreResults[];
  http: Awaited<ReturnType<typeof benchHttp>>;
  streams: Awaited<ReturnType<typeof benchLongStreams>>;
  growth: Awaited<ReturnType<typeof benchGrowth>>['steps'];
  compared: SizesCompared;
}

interface Target {
  target: string;
  measured: string;
  met: boolean;
}

/** Milliseconds to one place, with the unit (format.ts's `ms` gives three places, without). */
const millis = (n: number) => `${Number(n.toFixed(1))} ms`;

export function targetsSection(run: TargetFigures): string[] {
  const { compared, growth, streams, http, stores } = run;
  const sizes = compared.sizes;
  const [smallest, largest] = [sizes[0]!, sizes[sizes.length - 1]!];
  const last = growth[growth.length - 1]!;
  const growthRows = compared.routes.map((route) => ({
    route: route.route,
    ours: growthOf(route.perSize, 0),
    floor: route.floorPerSize && growthOf(route.floorPerSize, 0),
  }));
  const fallen = growthRows.filter((row) => row.ours < 0.8);
  const reads = compared.routes.filter((route) => route.floorPerSize);
  const slowestRead = Math.max(...reads.map((route) => route.perSize[route.perSize.length - 1]!.p99));
  const slowestSearch = last.searchAlone.reduce((a, b) => (b.ours.p99 > a.ours.p99 ? b : a));
  const sameQuery = last.searchAlone.filter((row) => row.sameQuery).map((row) => ({ q: row.q, ratio: row.ours.p50 / row.floor.p50 }));
  const patch = streams.short.requestsPerSecond / streams.long.requestsPerSecond;
  const signUps = http.ours.requestsPerSecond / http.grouped.requestsPerSecond;
  const batches = stores.map((store) => {
    const row = store.rows.find((r) => r.name.includes('batch'))!;
    return { synchronous: store.synchronous, ratio: row.ours / row.floor };
  });

  const targets: Target[] = [
    {
      target: `every route at ${fmt(largest)} events ≥ 0.8 × itself at ${fmt(smallest)}`,
      measured:
        fallen.length === 0
          ? `lowest ${ratio(Math.min(...growthRows.map((r) => r.ours)), 1)}`
          : `${fallen.map((r) => `${r.route} ${ratio(r.ours, 1)}${r.floor === undefined ? '' : ` (the raw floor ${ratio(r.floor, 1)})`}`).join('; ')}; every other route ${ratio(Math.min(...growthRows.filter((r) => r.ours >= 0.8).map((r) => r.ours)), 1)} or more`,
      met: fallen.length === 0,
    },
    {
      target: `p99 of every read ≤ 50 ms at ${fmt(largest)} events`,
      measured: `at most ${millis(slowestRead)} (16 connections)`,
      met: slowestRead <= 50,
    },
    {
      target: `search p99 ≤ 20 ms for any accepted query at ${fmt(largest)} events`,
      measured: `at most ${millis(slowestSearch.ours.p99)} (\`${slowestSearch.q}\`, one at a time)`,
      met: slowestSearch.ours.p99 <= 20,
    },
    {
      target: '/search ÷ raw FTS5 on the same query ≤ 1.3 (p50, one at a time)',
      measured: sameQuery.map((row) => `\`${row.q}\` ${ratio(row.ratio, 1)}`).join(', '),
      met: sameQuery.every((row) => row.ratio <= 1.3),
    },
    {
      target: `PATCH on a ${fmt(streams.long.streamLength)}-event stream ÷ on a 1-event stream ≤ 1.5`,
      measured: ratio(patch, 1),
      met: patch <= 1.5,
    },
    {
      target: 'POST /users ÷ the group-committed raw floor ≥ 0.8',
      measured: ratio(signUps, 1),
      met: signUps >= 0.8,
    },
    {
      target: 'appends of 100 events ÷ raw INSERTs ≥ 0.9',
      measured: batches.map((b) => `${ratio(b.ratio, 1)} at ${b.synchronous}`).join(', '),
      met: batches.every((b) => b.ratio >= 0.9),
    },
  ];
  return [
    '## Targets',
    '',
    'What this run measured against each target of the performance work (issue 14); the sections below say how each',
    'figure was taken and what it compares.',
    '',
    '| target | this run | met |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`),
    '',
  ];
}
