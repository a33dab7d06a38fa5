// `npm run bench`: measures side by side in one run, prints ratios, and records them in
// docs/benchmarks.md. BENCH_SCALE (default 1) scales the work, BENCH_SECONDS the HTTP runs.
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
import { LOAD_HEADING, withLoadSection } from '../load/report.ts';
import { benchEmmett } from './emmett.ts';
import { fmt, ms, ratio } from './format.ts';
import { benchmarksReport, peerRate } from './report.ts';
import { grown } from './report-growth.ts';

/** The machine's load when the run began: the figures mean less on a busy machine. */
const loadAtStart = loadavg()[0]!.toFixed(2);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/** Store sizes for the growth table, in events; each is seeded by appending to the one before. */
const growthSizes = (process.env.BENCH_GROWTH_EVENTS ?? '1000,100000,1000000').split(',').map(Number);
const growthSeconds = Number(process.env.BENCH_GROWTH_SECONDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'eventide-bench-'));

try {
  const stores: EventStoreResults[] = [];
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const results = await benchEventStore(dir, synchronous, scale);
    stores.push(results);
    for (const row of results.rows) {
      console.log(
        `event store (${synchronous}) ${row.name}: ${fmt(row.ours)} ev/s; ${row.floorName}: ${fmt(row.floor)} ev/s; ratio ${ratio(row.ours, row.floor)}`,
      );
    }
  }
  const emmett = await benchEmmett(dir, scale);
  if ('skipped' in emmett) console.log(`Emmett peer: skipped, ${emmett.skipped}`);
  else
    for (const row of emmett.rows) {
      console.log(
        `event store vs Emmett, ${row.name}: ours ${fmt(row.ours)} ev/s; Emmett ${peerRate(row.peer)}${row.peer.rate === undefined ? '' : `; ratio ${ratio(row.ours, row.peer.rate)}`}`,
      );
    }
  const read = await benchReadSide(dir, scale);
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
  const kafka = await benchKafka(dir, scale);
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
  const http = await benchHttp(join(dir, 'http'), seconds, 'FULL');
  const personal = await benchPersonalData(join(dir, 'personal'), scale);
  for (const row of personal) {
    console.log(
      `personal data, ${row.name}: sealed ${fmt(row.sealed)}/s, plain ${fmt(row.plain)}/s, ratio ${ratio(row.sealed, row.plain)}`,
    );
  }
  console.log(
    `${http.ours.name}: ${fmt(http.ours.requestsPerSecond)} req/s; ${http.grouped.name}: ${fmt(http.grouped.requestsPerSecond)} req/s; ratio ${ratio(http.ours.requestsPerSecond, http.grouped.requestsPerSecond)}; ${http.single.name}: ${fmt(http.single.requestsPerSecond)} req/s; ratio ${ratio(http.ours.requestsPerSecond, http.single.requestsPerSecond)}`,
  );
  console.log(
    `${http.traced.name}: ${fmt(http.traced.requestsPerSecond)} req/s; ratio to untraced ${ratio(http.traced.requestsPerSecond, http.ours.requestsPerSecond)}`,
  );

  const streams = await benchLongStreams(join(dir, 'long-streams'));
  console.log(
    `PATCH /products/{id} at stream length ${fmt(streams.long.streamLength)}: ${fmt(streams.long.requestsPerSecond)} req/s, p99 ${ms(streams.long.p99)} ms; at length ${streams.short.streamLength}: ${fmt(streams.short.requestsPerSecond)} req/s, p99 ${ms(streams.short.p99)} ms; cost ratio ${ratio(streams.short.requestsPerSecond, streams.long.requestsPerSecond)}`,
  );

  const { steps: growth, compared } = await benchGrowth(join(dir, 'growth'), growthSizes, growthSeconds);
  const last = growth[growth.length - 1]!;
  for (const step of growth)
    console.log(
      `npm run seed to ${fmt(step.events)} events: ${fmt(step.seeded.events)} added in ${step.seeded.seconds.toFixed(1)} s, read models included`,
    );
  for (const [i, route] of last.routes.entries()) {
    console.log(
      `${route.route} at ${fmt(last.events)} events: ${fmt(route.ours.requestsPerSecond)} req/s, p99 ${route.ours.p99} ms${route.floor ? `, ÷ raw floor ${ratio(route.ours.requestsPerSecond, route.floor.requestsPerSecond)}` : ''}; ÷ itself at ${fmt(compared.sizes[0]!)} events (interleaved) ${grown(compared.routes[i]!, 0)}${compared.routes[i]!.floorPerSize ? `, the floor's ${grown(compared.routes[i]!, 0, 'floor')}` : ''}`,
    );
  }

  const auth = await benchAuth(join(dir, 'auth'), seconds);
  console.log(
    `password sign-in p50 ${ms(auth.signInP50)} ms; one scrypt hash p50 ${ms(auth.scryptP50)} ms; ratio ${ratio(auth.signInP50, auth.scryptP50)}`,
  );
  console.log(
    `the same sign-in while another address keeps ${FLOOD} in flight: p50 ${ms(auth.signInUnderFloodP50)} ms; ratio to alone ${ratio(auth.signInUnderFloodP50, auth.signInP50)}`,
  );
  console.log(
    `GET /products with a session ${fmt(auth.withSession)} req/s; without ${fmt(auth.withoutSession)} req/s; ratio ${ratio(auth.withSession, auth.withoutSession)}`,
  );

  const collab = await benchCollab(join(dir, 'collab'), scale);
  console.log(
    `collab op to ${collab.editors - 1} editors: p50 ${ms(collab.ours.p50)} ms, p99 ${ms(collab.ours.p99)} ms; WebSocket echo p50 ${ms(collab.echo.p50)} ms, p99 ${ms(collab.echo.p99)} ms; ratios ${ratio(collab.ours.p50, collab.echo.p50)} and ${ratio(collab.ours.p99, collab.echo.p99)}`,
  );
  if (collab.yjs)
    console.log(
      `Yjs (Hocuspocus): p50 ${ms(collab.yjs.p50)} ms, p99 ${ms(collab.yjs.p99)} ms; ours ÷ Yjs ${ratio(collab.ours.p50, collab.yjs.p50)} and ${ratio(collab.ours.p99, collab.yjs.p99)}`,
    );

  const quality = await benchSearchQuality();
  console.log(
    `search quality: ${quality.queries} labelled queries, precision at 10 ${quality.precisionAt10.toFixed(2)}, recall at 10 ${quality.recallAt10.toFixed(2)}`,
  );

  const web = await benchWeb(scale);
  if (web)
    console.log(
      `web app first load: ${fmt(web.appBytes)} bytes (${fmt(web.scriptBytes)} of script), p50 ${ms(web.appP50)} ms to the first product; static page ${fmt(web.floorBytes)} bytes, p50 ${ms(web.floorP50)} ms; ratio ${ratio(web.appP50, web.floorP50)}`,
    );
  else console.log('web app: skipped, Chromium is not installed');

  const lines = benchmarksReport({
    scale,
    seconds,
    growthSeconds,
    loadAtStart,
    stores,
    emmett,
    read,
    kafka,
    http,
    personal,
    streams,
    growth,
    compared,
    auth,
    collab,
    quality,
    web,
  });
  const out = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
  // The load run (`npm run load -- --record`) is kept as it was: this bench does not repeat it.
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const kept = previous.includes(LOAD_HEADING) ? previous.slice(previous.indexOf(LOAD_HEADING)).split(/\n(?=## )/)[0]! : undefined;
  writeFileSync(out, kept ? withLoadSection(lines.join('\n'), kept) : lines.join('\n'));
  console.log(`recorded in ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
