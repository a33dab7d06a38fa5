// `npm run bench`: measures side by side in one run, prints ratios, and records them in
// docs/benchmarks.md; `--quick` checks the harness on tiny data and records nothing (plan.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEventStore, type EventStoreResults } from './event-store.ts';
import { benchHttp } from './http.ts';
import { benchPersonalData } from './personal-data.ts';
import { benchReadSide } from './read-side.ts';
import { benchKafka } from './kafka.ts';
import { benchAuth, FLOOD } from './auth.ts';
import { benchCollab } from './collab.ts';
import { benchWeb } from './web.ts';
import { benchSearchQuality } from './search-quality.ts';
import { benchLongStreams } from './long-streams.ts';
import { benchGrowth } from './growth.ts';
import { benchStartup } from './startup.ts';
import { benchMemory } from './memory.ts';
import { LOAD_HEADING, withLoadSection } from '../load/report.ts';
import { benchEmmett } from './emmett.ts';
import { fmt, ms, ratio } from './format.ts';
import { benchmarksReport, type BenchRun } from './report.ts';
import { peerRate } from './report-peers.ts';
import { benchPostgres } from './postgres.ts';
import { grown } from './report-growth.ts';
import { benchPlan, USAGE } from './plan.ts';
import { wrkMissing } from './wrk.ts';

let plan: ReturnType<typeof benchPlan>;
try {
  plan = benchPlan(process.argv.slice(2), process.env);
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
// Every section that loads a server loads it with wrk (wrk.ts says why).
const noWrk = wrkMissing();
if (noWrk !== undefined) {
  console.error(`npm run bench loads its servers with wrk, and ${noWrk}: apt-get install -y wrk`);
  process.exit(2);
}
// The servers start with the start scripts, as users start them: from the start bundle, built now when
// stale (infra/src/start), not in the background of the first section.
const bundle = spawnSync(
  process.execPath,
  [fileURLToPath(new URL('../src/start/build-cli.ts', import.meta.url)), '--if-stale', '--strict'],
  {
    stdio: 'inherit',
  },
);
if (bundle.status !== 0) process.exit(2);
/** The machine's load when the run began: the figures mean less on a busy machine. */
const loadAtStart = loadavg()[0]!.toFixed(2);
const { scale, seconds } = plan;
const dir = mkdtempSync(join(tmpdir(), 'eventide-bench-'));
const sections: BenchRun['sections'] = [];
const runStarted = performance.now();

/** The machine's processor time so far, in ticks: all of it, and what the hypervisor gave to others (Linux /proc/stat). */
function processorTicks(): { total: number; stolen: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  return { total: fields.slice(0, 8).reduce((sum, n) => sum + n, 0), stolen: fields[7] ?? 0 };
}

/** Runs one section of the run, and says how long it took, how loaded the machine was at its end and what of its processors the hypervisor took. */
async function section<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const before = processorTicks();
  const result = await work();
  const after = processorTicks();
  const stolen = after.total > before.total ? (after.stolen - before.stolen) / (after.total - before.total) : 0;
  const spent = { name, seconds: (performance.now() - started) / 1000, load: loadavg()[0]!, stolen };
  sections.push(spent);
  console.log(`[${name}: ${spent.seconds.toFixed(0)} s, load ${spent.load.toFixed(2)}, ${(100 * stolen).toFixed(0)}% stolen]`);
  return result;
}

try {
  // First, while nothing else runs: the abuse. The minute the process then stands idle runs
  // beside the sections after it.
  const abused = await section('memory: the abuse', () => benchMemory(plan.memory));
  const stores: EventStoreResults[] = [];
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const results = await section(`event store at ${synchronous}`, () => benchEventStore(dir, synchronous, scale));
    stores.push(results);
    for (const row of results.rows) {
      console.log(
        `event store (${synchronous}) ${row.name}: ${fmt(row.ours)} ev/s; ${row.floorName}: ${fmt(row.floor)} ev/s; ratio ${ratio(row.ours, row.floor)}`,
      );
    }
  }
  // A third of the appends of the other sections: the peer makes about 250 a second.
  const emmett = await section('Emmett', () => benchEmmett(dir, scale / 3, !plan.quick));
  if ('skipped' in emmett) console.log(`Emmett peer: skipped, ${emmett.skipped}`);
  else
    for (const row of emmett.rows) {
      console.log(
        `event store vs Emmett, ${row.name}: ours ${fmt(row.ours)} ev/s; Emmett ${peerRate(row.peer)}${row.peer.rate === undefined ? '' : `; ratio ${ratio(row.ours, row.peer.rate)}`}`,
      );
    }
  const postgres = await section('PostgreSQL', () => benchPostgres(scale, !plan.quick));
  if ('skipped' in postgres) console.log(`PostgreSQL: skipped, ${postgres.skipped}`);
  else {
    for (const row of postgres.rows)
      console.log(
        `PostgreSQL, ${row.name}: ours ${fmt(row.ours)} ev/s; raw INSERT floor ${fmt(row.floor)} ev/s, ratio ${ratio(row.ours, row.floor)}; Emmett ${peerRate(row.peer)}${row.peer.rate === undefined ? '' : `, ratio ${ratio(row.ours, row.peer.rate)}`}`,
      );
    for (const row of postgres.reads)
      console.log(`PostgreSQL, ${row.name}: p50 ${ms(row.ours)} ms; raw SQL ${ms(row.floor)} ms; ratio ${ratio(row.ours, row.floor)}`);
  }
  const read = await section('read side', () => benchReadSide(dir, scale));
  for (const row of read.paging) {
    console.log(
      `page at depth ${row.depth}: cursor ${ms(row.cursorP50)} ms (${ratio(row.cursorP50, read.firstPageP50)}x first page), offset ${ms(row.offsetP50)} ms (${ratio(row.offsetP50, read.firstPageP50)}x)`,
    );
  }
  console.log(
    `search p50 ${ms(read.searchP50)} ms; lookup by id p50 ${ms(read.lookupP50)} ms; ratio ${ratio(read.searchP50, read.lookupP50)}`,
  );
  for (const lag of read.lag)
    console.log(`projection lag (${lag.load}): p50 ${ms(lag.p50)} ms, p99 ${ms(lag.p99)} ms; append commit p50 ${ms(lag.appendP50)} ms`);
  const kafka = await section('Kafka', () => benchKafka(dir, scale));
  if (kafka) {
    console.log(
      `write to handler: p50 ${ms(kafka.ours.p50)} ms, p99 ${ms(kafka.ours.p99)} ms; raw kafkajs produce to consume: p50 ${ms(kafka.raw.p50)} ms, p99 ${ms(kafka.raw.p99)} ms; ratios ${ratio(kafka.ours.p50, kafka.raw.p50)} and ${ratio(kafka.ours.p99, kafka.raw.p99)}`,
    );
    console.log(
      `relay ${fmt(kafka.relayPerSecond)} events/s; raw kafkajs batch produce ${fmt(kafka.rawProducePerSecond)} messages/s; ratio ${ratio(kafka.relayPerSecond, kafka.rawProducePerSecond)}`,
    );
  } else {
    console.log('Kafka: skipped, kcat is not installed (apt-get install -y kcat)');
  }
  const http = await section('POST /users', () => benchHttp(join(dir, 'http'), seconds, 'FULL'));
  console.log(
    `${http.ours.name}: ${fmt(http.ours.requestsPerSecond)} req/s; ${http.grouped.name}: ${fmt(http.grouped.requestsPerSecond)} req/s; ratio ${ratio(http.ours.requestsPerSecond, http.grouped.requestsPerSecond)}; ${http.projecting.name}: ${fmt(http.projecting.requestsPerSecond)} req/s; ratio ${ratio(http.ours.requestsPerSecond, http.projecting.requestsPerSecond)}; ${http.single.name}: ${fmt(http.single.requestsPerSecond)} req/s; ratio ${ratio(http.ours.requestsPerSecond, http.single.requestsPerSecond)}`,
  );
  console.log(
    `${http.traced.name}: ${fmt(http.traced.requestsPerSecond)} req/s; ratio to untraced ${ratio(http.traced.requestsPerSecond, http.ours.requestsPerSecond)}`,
  );
  const personal = await section('personal data', () => benchPersonalData(join(dir, 'personal'), scale));
  for (const row of personal) {
    console.log(
      `personal data, ${row.name}: sealed ${fmt(row.sealed)}/s, plain ${fmt(row.plain)}/s, ratio ${ratio(row.sealed, row.plain)}`,
    );
  }
  const streams = await section('long streams', () =>
    plan.quick ? benchLongStreams(join(dir, 'long-streams'), 100, 40) : benchLongStreams(join(dir, 'long-streams'), 10_000, 1_000),
  );
  console.log(
    `PATCH /products/{id} at stream length ${fmt(streams.long.streamLength)}: ${fmt(streams.long.requestsPerSecond)} req/s, p99 ${ms(streams.long.p99)} ms; at length ${streams.short.streamLength}: ${fmt(streams.short.requestsPerSecond)} req/s, p99 ${ms(streams.short.p99)} ms; cost ratio ${ratio(streams.short.requestsPerSecond, streams.long.requestsPerSecond)}`,
  );

  // Its parts are timed as sections of their own: it is most of the run.
  const growth = await benchGrowth(join(dir, 'growth'), plan.growth.sizes, plan.growth.seconds, plan.growth.rounds, section);
  for (const step of growth.steps)
    console.log(
      `npm run seed to ${fmt(step.events)} events: ${fmt(step.seeded.events)} added in ${step.seeded.seconds.toFixed(1)} s, read models included`,
    );
  const { compared } = growth;
  const largest = compared.sizes[compared.sizes.length - 1]!;
  for (const route of compared.routes) {
    const ours = route.perSize[route.perSize.length - 1]!;
    const floor = route.floorPerSize?.[route.floorPerSize.length - 1];
    console.log(
      `${route.route} at ${fmt(largest)} events: ${fmt(ours.requestsPerSecond)} req/s, p99 ${ours.p99} ms${floor ? `, ÷ raw floor ${ratio(ours.requestsPerSecond, floor.requestsPerSecond)}` : ''}; ÷ itself at ${fmt(compared.sizes[0]!)} events ${grown(route, 0)}${route.floorPerSize ? `, the floor's ${grown(route, 0, 'floor')}` : ''}`,
    );
  }
  for (const [i, alone] of growth.searchAlone.entries())
    console.log(
      `search \`${alone.q}\` (${alone.note}): alone p50 ${ms(alone.ours.p50)} ms, ÷ floor ${ratio(alone.ours.p50, alone.floor.p50)}; 16 connections p99 ${growth.searchLoaded[i]!.ours.p99} ms`,
    );

  const startup = await section('start-up', () => benchStartup(dir, plan.startup.starts, plan.startup.idleSeconds));
  console.log(
    `npm start on an empty store: first 200 after ${ms(startup.firstOk.p50)} ms through npm (p50 of ${startup.starts}; ${ms(startup.firstOkWithoutNpmP50)} ms without), RSS ${startup.rssMiB.p50.toFixed(0)} MiB after ${startup.idleSeconds} s idle (${startup.rssOneThreadMiB.toFixed(0)} MiB on one HTTP thread)`,
  );

  const auth = await section('sign-in', () => benchAuth(join(dir, 'auth'), seconds, plan.quick ? 2 : 6));
  console.log(
    `password sign-in p50 ${ms(auth.signInP50)} ms; one scrypt hash p50 ${ms(auth.scryptP50)} ms; ratio ${ratio(auth.signInP50, auth.scryptP50)}`,
  );
  console.log(
    `the same sign-in while another address keeps ${FLOOD} in flight: p50 ${ms(auth.signInUnderFloodP50)} ms; ratio to alone ${ratio(auth.signInUnderFloodP50, auth.signInP50)}`,
  );
  console.log(
    `GET /products with a session ${fmt(auth.withSession)} req/s; without ${fmt(auth.withoutSession)} req/s; ratio ${ratio(auth.withSession, auth.withoutSession)}`,
  );

  const collab = await section('collab', () => benchCollab(join(dir, 'collab'), scale));
  console.log(
    `collab op to ${collab.editors - 1} editors: p50 ${ms(collab.ours.p50)} ms, p99 ${ms(collab.ours.p99)} ms; WebSocket echo p50 ${ms(collab.echo.p50)} ms, p99 ${ms(collab.echo.p99)} ms; ratios ${ratio(collab.ours.p50, collab.echo.p50)} and ${ratio(collab.ours.p99, collab.echo.p99)}`,
  );
  if (collab.yjs)
    console.log(
      `Yjs (Hocuspocus): p50 ${ms(collab.yjs.p50)} ms, p99 ${ms(collab.yjs.p99)} ms; ours ÷ Yjs ${ratio(collab.ours.p50, collab.yjs.p50)} and ${ratio(collab.ours.p99, collab.yjs.p99)}`,
    );

  const quality = await section('search quality', () => benchSearchQuality());
  console.log(
    `search quality: ${quality.queries} labelled queries, precision at 10 ${quality.precisionAt10.toFixed(2)}, recall at 10 ${quality.recallAt10.toFixed(2)}`,
  );

  const web = await section('web app', () => benchWeb(scale));
  if (web)
    console.log(
      `web app first load: ${fmt(web.appBytes)} bytes (${fmt(web.scriptBytes)} of script), p50 ${ms(web.appP50)} ms to the first product; static page ${fmt(web.floorBytes)} bytes, p50 ${ms(web.floorP50)} ms; ratio ${ratio(web.appP50, web.floorP50)}`,
    );
  else console.log('web app: skipped, Chromium is not installed');

  const memory = await section('memory: the rest of the idle minute', () => abused.settled);
  console.log(
    `RSS idle ${memory.idleMiB.toFixed(0)} MiB, right after ${memory.rounds} rounds of abuse ${memory.abusedMiB.toFixed(0)} MiB, ${memory.settleSeconds} s later ${memory.settledMiB.toFixed(0)} MiB: ratio ${ratio(memory.settledMiB, memory.idleMiB)}`,
  );
  console.log(`the whole run: ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);

  const lines = benchmarksReport({
    plan,
    sections,
    loadAtStart,
    stores,
    emmett,
    postgres,
    read,
    kafka,
    http,
    personal,
    streams,
    growth,
    startup,
    memory,
    auth,
    collab,
    quality,
    web,
  });
  if (plan.out) {
    // The load run (`npm run load -- --record`) is kept as it was: this bench does not repeat it.
    const previous = existsSync(plan.out) ? readFileSync(plan.out, 'utf8') : '';
    const kept = previous.includes(LOAD_HEADING) ? previous.slice(previous.indexOf(LOAD_HEADING)).split(/\n(?=## )/)[0]! : undefined;
    writeFileSync(plan.out, kept ? withLoadSection(lines.join('\n'), kept) : lines.join('\n'));
    console.log(`recorded in ${plan.out}`);
  } else {
    console.log(
      `not recorded (a quick run's figures mean nothing); its targets table:\n${lines.slice(lines.indexOf('## Targets')).join('\n').split('\n## ')[0]}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
