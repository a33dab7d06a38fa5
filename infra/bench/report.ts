// What `npm run bench` records in docs/benchmarks.md: every figure of one run in its tables, with
// the prose that says what each compares and what to make of it. run.ts measures; this writes.
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { type benchAuth, FLOOD } from './auth.ts';
import type { CollabResults } from './collab.ts';
import type { benchEmmett } from './emmett.ts';
import type { benchPostgres } from './postgres.ts';
import { EVENT_STORE_ROUNDS, type EventStoreResults } from './event-store.ts';
import type { GrowthResults } from './growth.ts';
import type { benchHttp } from './http.ts';
import type { KafkaResults } from './kafka.ts';
import type { benchLongStreams } from './long-streams.ts';
import type { benchPersonalData } from './personal-data.ts';
import type { ReadSideResults } from './read-side.ts';
import type { StartupResults } from './startup.ts';
import type { MemoryResults } from './memory.ts';
import { HEADING } from './headings.ts';
import type { benchSearchQuality } from './search-quality.ts';
import type { benchWeb } from './web.ts';
import { fmt, ms, ratio } from './format.ts';
import type { BenchPlan } from './plan.ts';
import { growthSection } from './report-growth.ts';
import { threadsSection } from './report-threads.ts';
import { signUpsSection } from './report-sign-ups.ts';
import { emmettSection, postgresSection } from './report-peers.ts';
import { targetsSection } from './report-targets.ts';
import { LAG_NOTES, READ_PATH_NOTES, STARTUP_NOTES } from './report-notes.ts';

/** Everything one run measured, and how it was run. */
export interface BenchRun {
  /** How the run was asked for (plan.ts). */
  plan: BenchPlan;
  /** Each section's wall time, the load average (1 min) when it ended, and the share of processor time the hypervisor took meanwhile. */
  sections: Array<{ name: string; seconds: number; load: number; stolen: number }>;
  /** The machine's load when the run began: the figures mean less on a busy machine. */
  loadAtStart: string;
  stores: EventStoreResults[];
  emmett: Awaited<ReturnType<typeof benchEmmett>>;
  postgres: Awaited<ReturnType<typeof benchPostgres>>;
  read: ReadSideResults;
  kafka: KafkaResults | undefined;
  http: Awaited<ReturnType<typeof benchHttp>>;
  personal: Awaited<ReturnType<typeof benchPersonalData>>;
  streams: Awaited<ReturnType<typeof benchLongStreams>>;
  growth: GrowthResults;
  startup: StartupResults;
  memory: MemoryResults;
  auth: Awaited<ReturnType<typeof benchAuth>>;
  collab: CollabResults;
  quality: Awaited<ReturnType<typeof benchSearchQuality>>;
  web: Awaited<ReturnType<typeof benchWeb>>;
}

/** The lines of docs/benchmarks.md for `run` (the load run's section is kept apart: run.ts). */
export function benchmarksReport(run: BenchRun): string[] {
  const { plan, loadAtStart, stores, emmett, read, kafka, http, personal, streams, growth } = run;
  const { auth, collab, quality, web, startup, memory, sections } = run;
  const collabRow = (name: string, l: { p50: number; p99: number }) =>
    `| ${name} | ${ms(l.p50)} | ${ms(l.p99)} | ${ratio(l.p50, collab.echo.p50)} | ${ratio(l.p99, collab.echo.p99)} |`;
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench`; every ratio compares two things measured in the same run on the same machine.',
    'Absolute numbers drift between machines and runs here; the ratios are what to compare.',
    '',
    'What a run measures, each against a floor or a peer in the same run: embedded appends against raw SQLite inserts',
    "with the same settings and against Emmett's SQLite event store; `POST /users` against a Koa handler making the same",
    "durable inserts, with each process's CPU a request by thread and the same sign-ups through the write side alone;",
    'cursor and offset pages by depth; projection lag; Kafka distribution against raw kafkajs; a PATCH',
    'on a 10,000-event stream against one on a new stream; every read route at 1,000 and 1,000,000 events (seeded with',
    '`npm run seed`) against a Koa handler running the same SELECTs; every kind of search query alone and under 16',
    'connections; start-up and idle memory; memory a minute after abuse; sign-in against one scrypt hash; and',
    'collaborative op propagation to 49 other editors against a raw WebSocket echo and a Yjs (Hocuspocus) server.',
    '`BENCH_GROWTH_EVENTS=1000,100000` measures smaller stores; `BENCH_SECONDS`, `BENCH_GROWTH_SECONDS` and',
    '`BENCH_GROWTH_ROUNDS` lengthen the loads. `npm run bench -- --quick` runs every section on tiny data and records',
    'nothing: a check that the harness works (`npm test` runs it), whose figures mean nothing. The first run installs the',
    'Emmett peer in `infra/bench/peers/emmett` (outside the workspaces; offline, its sqlite3 compiles SQLite, about 2 minutes).',
    '',
    `Run: ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, BENCH_SCALE=${plan.scale}, BENCH_SECONDS=${plan.seconds}, BENCH_GROWTH_SECONDS=${plan.growth.seconds}, BENCH_GROWTH_ROUNDS=${plan.growth.rounds}; ${Math.round(sections.reduce((sum, section) => sum + section.seconds, 0))} s in all; load average (1 min) ${loadAtStart} at the start and ${loadavg()[0]!.toFixed(2)} at the end (each section's below, in [How this run went](#how-this-run-went)).`,
    '',
    ...targetsSection(run),
    `## ${HEADING.eventStore}`,
    '',
    'Both on one disk, WAL mode, the same table and indexes, at the same `synchronous` level. FULL is the default',
    '(an acknowledged append survives power loss); NORMAL survives a process crash only. Each rate is the median of',
    `${EVENT_STORE_ROUNDS} rounds, ours and the floor in turn, each round on fresh files (one window each moved a ratio by a fifth between runs).`,
    '',
    '| synchronous | workload | ours (events/s) | floor | floor (events/s) | ours / floor |',
    '|---|---|---:|---|---:|---:|',
    ...stores.flatMap((s) =>
      s.rows.map((r) => `| ${s.synchronous} | ${r.name} | ${fmt(r.ours)} | ${r.floorName} | ${fmt(r.floor)} | ${ratio(r.ours, r.floor)} |`),
    ),
    '',
    ...emmettSection(emmett),
    ...postgresSection(run.postgres),
    ...signUpsSection(http, plan.seconds),
    '## Personal data: what sealing costs',
    '',
    'The embedded event store (synchronous as shown) with the sealing wrapper and its key store (docs/privacy.md), against the',
    'same store without them, in this run. A sign-up is a new person: their key is made, and committed to `keys.db`,',
    'before the event that uses it (keys asked for together share one commit). The replay reads back a log made only of',
    "`user:created` events, 500 at a time as a rebuild does: through the wrapper, which looks up each page's keys and opens",
    'two fields an event, and through the store alone, which returns the same events sealed. The projection replay is',
    "`npm run rebuild`'s work (the projector's replay into fresh read models) over that sealed log through the wrapper, against",
    'the same number of users written plain and replayed through the store alone. A real log holds few such',
    'events (2% in `npm run seed`); products and orders are not personal and pass through untouched.',
    '',
    '| workload | sealed (/s) | plain (/s) | sealed ÷ plain |',
    '|---|---:|---:|---:|',
    ...personal.map((r) => `| ${r.name} | ${fmt(r.sealed)} | ${fmt(r.plain)} | ${ratio(r.sealed, r.plain)} |`),
    '',
    ...readPathSection(),
    ...growthSection(growth, plan.growth.seconds),
    ...threadsSection(growth.threads, availableParallelism()),
    `## ${HEADING.longStreams}`,
    '',
    `PATCH /products/{id} renaming a product, ${fmt(streams.requests)} requests on each side, one at a time (two at once on one product`,
    'would conflict), through the whole service at synchronous=NORMAL so that an fsync per request does not hide the',
    "cost of reading the product's state. One side patches products that have one event each; the other, one product",
    `whose stream already holds ${fmt(streams.long.streamLength)} events (and grows as it is patched). The halves alternate.`,
    '',
    '| stream length | requests/s | p50 (ms) | p99 (ms) |',
    '|---:|---:|---:|---:|',
    ...[streams.short, streams.long].map((r) => `| ${fmt(r.streamLength)} | ${fmt(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} |`),
    '',
    `**Time per PATCH at length ${fmt(streams.long.streamLength)} ÷ at length 1: ${ratio(streams.short.requestsPerSecond, streams.long.requestsPerSecond)}** (the target is 1.5 at most). A command loads the`,
    'newest snapshot of its entity and the events after it (docs/events.md#snapshots-of-long-streams).',
    '',
    `Then \`GET /products/{id}?at=\` the middle of that stream (event ${fmt(Math.floor(streams.long.streamLength / 2))}), one at a time: p50 ${ms(streams.asOf.p50)} ms, p99 ${ms(streams.asOf.p99)} ms. An as-of read starts`,
    'from the newest snapshot at or before `at` that the PATCHes left, and folds the events after it (docs/api.md#as-of).',
    '',
    `## ${HEADING.readSide}`,
    '',
    `On ${read.products.toLocaleString('en')} products. Pages of 20, newest first; p50 of repeated reads through the read store. First page: ${ms(read.firstPageP50)} ms.`,
    '',
    '| depth | cursor p50 (ms) | cursor ÷ first page | offset p50 (ms) | offset ÷ first page |',
    '|---:|---:|---:|---:|---:|',
    ...read.paging.map(
      (r) =>
        `| ${r.depth.toLocaleString('en')} | ${ms(r.cursorP50)} | ${ratio(r.cursorP50, read.firstPageP50)} | ${ms(r.offsetP50)} | ${ratio(r.offsetP50, read.firstPageP50)} |`,
    ),
    '',
    `Search (two words, FTS5, top 20) p50 ${ms(read.searchP50)} ms; lookup by id p50 ${ms(read.lookupP50)} ms: **search ÷ lookup ${ratio(read.searchP50, read.lookupP50)}**.`,
    '',
    'Projection lag: from an append committed (event store at synchronous=NORMAL) to the document visible in a read, with the projector in the same process.',
    '',
    '| load | lag p50 (ms) | lag p99 (ms) | append commit p50 (ms) | lag p50 ÷ append |',
    '|---|---:|---:|---:|---:|',
    ...read.lag.map((l) => `| ${l.load} | ${ms(l.p50)} | ${ms(l.p99)} | ${ms(l.appendP50)} | ${ratio(l.p50, l.appendP50)} |`),
    '',
    ...LAG_NOTES,
    ...(kafka
      ? [
          `## ${HEADING.kafka}`,
          '',
          'On the librdkafka mock cluster, the same broker for both.',
          '',
          '| measure | ours | raw kafkajs | ours ÷ raw |',
          '|---|---:|---:|---:|',
          `| write to handler p50 (ms) vs produce to consume p50 | ${ms(kafka.ours.p50)} | ${ms(kafka.raw.p50)} | ${ratio(kafka.ours.p50, kafka.raw.p50)} |`,
          `| write to handler p99 (ms) vs produce to consume p99 | ${ms(kafka.ours.p99)} | ${ms(kafka.raw.p99)} | ${ratio(kafka.ours.p99, kafka.raw.p99)} |`,
          `| of ours, the append until committed, p50 (ms) | ${ms(kafka.append.p50)} | – | – |`,
          `| of ours, commit to handler p50 (ms) vs produce to consume p50 | ${ms(kafka.afterCommit.p50)} | ${ms(kafka.raw.p50)} | ${ratio(kafka.afterCommit.p50, kafka.raw.p50)} |`,
          `| of ours, commit to handler p99 (ms) vs produce to consume p99 | ${ms(kafka.afterCommit.p99)} | ${ms(kafka.raw.p99)} | ${ratio(kafka.afterCommit.p99, kafka.raw.p99)} |`,
          `| relay of ${fmt(kafka.events)} events (events/s) vs batch produce (messages/s) | ${fmt(kafka.relayPerSecond)} | ${fmt(kafka.rawProducePerSecond)} | ${ratio(kafka.relayPerSecond, kafka.rawProducePerSecond)} |`,
          '',
          'Write to handler: an append committed, our publisher woken, produced (acks=all), fetched by the SDK in a consumer group,',
          'checked and handed to the handler. Raw: one kafkajs send (acks=all) until a kafkajs consumer in a group sees it.',
          'The append has no counterpart in the raw round trip (it commits the event to SQLite, synchronous=NORMAL here, before',
          'the publisher is woken): the rows after it split ours at the commit, and what follows it is what compares with raw.',
          'Both consumers fetch with no wait (`maxWaitTimeInMs: 0`): an empty fetch returns at once and the next one goes out,',
          'so neither latency is quantised by a timer. With a wait, the mock cluster (which does not end a waiting fetch when',
          'data arrives) made each figure depend on when a message landed in the wait rather than on the work done: 24x at p50',
          'before this change. On a real broker a waiting fetch returns as data arrives, so the default wait costs nothing there.',
          "Both run kafkajs with the request queue's idle loop stopped, as our bus runs it (docs/events.md#distribution).",
          '',
        ]
      : [`## ${HEADING.kafka}`, '', 'Skipped: kcat (the mock cluster) was not installed.', '']),
    '## Sign-in and sessions',
    '',
    '| measure | ours | floor | ours / floor |',
    '|---|---:|---:|---:|',
    `| password sign-in p50 (ms) vs one scrypt hash (N=2^17, r=8, p=1) p50 | ${ms(auth.signInP50)} | ${ms(auth.scryptP50)} | ${ratio(auth.signInP50, auth.scryptP50)} |`,
    `| password sign-in p50 (ms) while another address keeps ${FLOOD} sign-ins in flight vs the same sign-in alone | ${ms(auth.signInUnderFloodP50)} | ${ms(auth.signInP50)} | ${ratio(auth.signInUnderFloodP50, auth.signInP50)} |`,
    `| GET /products with a session (req/s) vs without | ${fmt(auth.withSession)} | ${fmt(auth.withoutSession)} | ${ratio(auth.withSession, auth.withoutSession)} |`,
    '',
    'Under the flood, hashes are shared fairly between clients (one at a time each, start-time fair order), so the',
    "victim waits for at most one of the attacker's hashes; first come, first served on libuv's pool it waited for",
    'all of them (6 to 13 s measured when this was found).',
    '',
    'A sign-in is one scrypt verification by design (OWASP parameters, 128 MiB each); everything else it does (claim and',
    'account reads, the session write, a new cookie) is the difference. A request with a session adds a signed-cookie',
    'check and a session-store read, and at most once a minute a write that refreshes the cookie. autocannon, 32 connections.',
    '',
    `## ${HEADING.collab}`,
    '',
    `Op propagation with ${collab.editors} editors on one document.`,
    `One editor at a time types a character (round robin, ${collab.rounds} rounds); a sample is the time from its submit until one`,
    `of the other ${collab.editors - 1} editors has applied it (${collab.ours.samples.toLocaleString('en')} samples). The floor is a raw WebSocket echo round trip of an`,
    'op-sized message to a bare `ws` server: the same two hops. Servers in their own processes; all clients in the bench',
    'process, so the last of the 49 receivers also waits for the 48 before it on one event loop, on both sides.',
    '',
    '| server | p50 (ms) | p99 (ms) | p50 ÷ echo p50 | p99 ÷ echo p99 |',
    '|---|---:|---:|---:|---:|',
    `| raw WebSocket echo (floor) | ${ms(collab.echo.p50)} | ${ms(collab.echo.p99)} | 1.00 | 1.00 |`,
    collabRow('ours: ShareDB, rich-text, SQLite synchronous=FULL, guards', collab.ours),
    ...(collab.yjs ? [collabRow('Yjs: Hocuspocus 4, no persistence', collab.yjs)] : ['| Yjs: Hocuspocus | skipped: did not start | | | |']),
    '',
    ...(collab.yjs
      ? [`**ours ÷ Yjs: p50 ${ratio(collab.ours.p50, collab.yjs.p50)}, p99 ${ratio(collab.ours.p99, collab.yjs.p99)}.**`, '']
      : []),
    'ShareDB commits each op (fsync on the embedded default) before it broadcasts it, so an op another editor has seen',
    'survives a crash; Hocuspocus broadcasts a Yjs update first and stores documents later (here not at all). Ours also',
    "checks access on each op for each receiving editor (cached) and the sender's rate and catch-up distance.",
    '',
    '## Search quality (labelled queries)',
    '',
    `${quality.queries} queries on a catalogue of ${quality.products} products (\`infra/bench/search-quality.ts\`), each labelled by hand with the`,
    'products a person typing it wants; precision and recall of the first 10 results on the embedded read store. An',
    'empty answer to a query that wants something counts as precision 0.',
    '',
    '| query | precision at 10 | recall at 10 |',
    '|---|---:|---:|',
    ...quality.perQuery.map((p) => `| \`${p.q}\` | ${p.precision.toFixed(2)} | ${p.recall.toFixed(2)} |`),
    '',
    `**Mean precision at 10: ${quality.precisionAt10.toFixed(2)}; mean recall at 10: ${quality.recallAt10.toFixed(2)}.**`,
    '',
    ...(web
      ? [
          '## Web app first load (headless Chromium, cold cache)',
          '',
          `${web.loads} loads each, alternating. Time is from navigation to the first product on screen (the app fetched its`,
          'session and the first page of products and rendered them); the floor is a static page of the same server with no',
          'script, to its heading. Bytes are what crossed the wire: the page, the script and the style sheet, compressed as served.',
          '',
          '| page | bytes | of which script | p50 (ms) |',
          '|---|---:|---:|---:|',
          `| the web app at / | ${fmt(web.appBytes)} | ${fmt(web.scriptBytes)} | ${ms(web.appP50)} |`,
          `| static page (floor) | ${fmt(web.floorBytes)} | 0 | ${ms(web.floorP50)} |`,
          '',
          `**app ÷ static page: ${ratio(web.appP50, web.floorP50)}.** The budget is 150 KB of compressed script; \`web/src/build.int.test.ts\` holds it.`,
          '',
        ]
      : ['## Web app first load', '', 'Skipped: Chromium was not installed.', '']),
    `## ${HEADING.startup}`,
    '',
    `\`npm start\` as a shell runs it (npm on the system's Node; its script's flags and environment; ${startup.threads} threads answering HTTP as \`HTTP_THREADS\``,
    `has it unset here) on a new empty data directory, ${startup.starts} times: from spawning npm to the first 200 of \`GET /health\`, and the server's`,
    `resident memory (VmRSS: every thread's heap and the pages of the node binary it touched) after ${startup.idleSeconds} s idle. In the same rounds, the`,
    "script's process without npm in front, as tests and process managers start it: the difference is npm's own start. Once more",
    "with `HTTP_THREADS=1`: what the request threads cost. (The followers' thread waits for the first event on an empty store: idle, it",
    'costs nothing.)',
    '',
    '| measure | p50 | worst |',
    '|---|---:|---:|',
    `| first 200 through npm (ms) | ${fmt(startup.firstOk.p50)} | ${fmt(startup.firstOk.max)} |`,
    `| first 200 without npm (ms) | ${fmt(startup.firstOkWithoutNpmP50)} | – |`,
    `| idle RSS (MiB) | ${startup.rssMiB.p50.toFixed(0)} | ${startup.rssMiB.max.toFixed(0)} |`,
    `| idle RSS on one HTTP thread (MiB) | ${startup.rssOneThreadMiB.toFixed(0)} | – |`,
    '',
    ...STARTUP_NOTES,
    `## ${HEADING.memory}`,
    '',
    `The process as \`npm start\` runs it, given ${memory.rounds} rounds of abuse (\`infra/test/hostile/abuse.ts\`: ${fmt(memory.size.requests)} fuzzed requests`,
    `from many addresses, ${memory.size.signIns} concurrent sign-ins with real scrypt, ${memory.size.editors} editors flooding one document with ${memory.size.ops} stale ops each),`,
    `then left idle for ${memory.settleSeconds} s while the rest of the run went on beside it.`,
    '',
    '| resident memory (MiB) | idle before | right after the abuse | after the idle minute | after ÷ idle |',
    '|---|---:|---:|---:|---:|',
    `| VmRSS | ${memory.idleMiB.toFixed(0)} | ${memory.abusedMiB.toFixed(0)} | ${memory.settledMiB.toFixed(0)} | ${ratio(memory.settledMiB, memory.idleMiB)} |`,
    '',
    '## How this run went',
    '',
    'Each section of this run, in order, with the load average (1 min) at its end and the share of the processors',
    'the hypervisor gave to other machines meanwhile (steal, from /proc/stat): a figure taken on a loaded or robbed',
    'machine means less, and this one has run the same section twice as slow from one hour to the next, floors',
    'included. The memory section runs first and its idle minute runs beside the sections after it.',
    '',
    '| section | seconds | load at its end | stolen |',
    '|---|---:|---:|---:|',
    ...sections.map(
      (section) =>
        `| ${section.name} | ${section.seconds.toFixed(0)} | ${section.load.toFixed(2)} | ${(100 * section.stolen).toFixed(0)}% |`,
    ),
    '',
    '## Reading these',
    '',
    '- One appender against one insert per transaction: both wait on one fsync per event, so a ratio near 1',
    '  says the store adds little on top (the revision check, a savepoint; a repeat is looked for only on a conflict).',
    '- Concurrent appenders against the same floor: appends that arrive together share one transaction and one',
    '  fsync (group commit), which is how the store beats the naive floor under load.',
    '- The batch rows compare per-event work when no fsync dominates: JSON encoding and the checks above.',
    '- POST /users commits a key, then the email claim and `user:created` together, after three reads, validation and',
    '  an access-log line per request; the bare handler does none of that. Commits run on the event loop:',
    '  the note at the top of `packages/stores/src/event-store/sqlite.ts` says why (a writer thread was measured slower).',
    '- Cursor pages seek by `seq` on an index, so their cost does not grow with depth; offset pages skip the rows',
    '  before theirs, so theirs does. `total` is a count kept with the documents, not counted per request.',
    '- Search ranks at most the newest 50 products whose names match and the newest 50 whose text matches',
    '  (docs/api.md#search), so its cost does not grow with the number of matches.',
    '- Projection lag is dominated by the projector waking on the append and writing its batch; p99 includes the',
    '  occasional WAL checkpoint of the read store.',
    '',
  ];
}

/** Where a read spends its time: what the profiles of a read showed, ours against the floor. */
function readPathSection(): string[] {
  return [`## ${HEADING.readPath}`, '', ...READ_PATH_NOTES];
}
