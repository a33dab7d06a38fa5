// The sections of docs/benchmarks.md that set our stores beside a peer a team would otherwise pick:
// Emmett's SQLite event store beside the embedded one, and the stores on PostgreSQL beside raw SQL
// on the same server and Emmett's PostgreSQL event store.
import type { benchEmmett, PeerRate } from './emmett.ts';
import { fmt, ms, ratio } from './format.ts';
import { HEADING } from './headings.ts';
import { CONCURRENT, type benchPostgres, PEER_VERSION } from './postgres.ts';

/** The errors of the peer's runs that did not finish, counted by kind, after the rate of the one that did. */
const peerFailures = (r: PeerRate) => {
  if (r.failures.length === 0) return '';
  const kinds = [...new Set(r.failures.map((f) => f.replace(/ \(after \d+ appends\)$/, '')))];
  return ` (${r.failures.length} run${r.failures.length > 1 ? 's' : ''} failed: ${kinds.join('; ')})`;
};
export const peerRate = (r: PeerRate) => `${r.rate === undefined ? 'no run finished' : `${fmt(r.rate)} ev/s`}${peerFailures(r)}`;

export function emmettSection(emmett: Awaited<ReturnType<typeof benchEmmett>>): string[] {
  return [
    "## Embedded event store against Emmett's SQLite event store",
    '',
    ...('skipped' in emmett
      ? [`Skipped: ${emmett.skipped}.`]
      : [
          `\`@event-driven-io/emmett-sqlite\` 0.38.5 (sqlite3 5.1.7, SQLite 3.44.2) against ours, ${fmt(emmett.appends)} appends of one`,
          '`user:created` each, both in WAL mode at synchronous=FULL (the default of both), one file each on the same disk. New',
          'streams are appended with the expectation that they do not exist yet (Emmett: `expectedStreamVersion: 0n`, since its',
          '`STREAM_DOES_NOT_EXIST` checks nothing); the existing stream with its current version.',
          '',
          '| workload | ours (events/s) | Emmett (events/s) | ours ÷ Emmett |',
          '|---|---:|---:|---:|',
          ...emmett.rows.map(
            (r) =>
              `| ${r.name} | ${fmt(r.ours)} | ${r.peer.rate === undefined ? 'none finished' : fmt(r.peer.rate)}${peerFailures(r.peer)} | ${r.peer.rate === undefined ? '–' : ratio(r.ours, r.peer.rate)} |`,
          ),
          '',
          'Each Emmett workload is run up to three times, on until one finishes; the runs that failed are named in the',
          'table. Emmett opens the file for every operation and closes it after, and concurrent appends share that one',
          'connection: a second transaction begins inside the first and the first to finish closes the handle under the',
          'others. Under CPU load its one-at-a-time appends fail now and then at COMMIT with SQLITE_BUSY ("SQL statements in',
          'progress"): sqlite3 runs the statements of a connection in parallel on its thread pool unless told to serialize,',
          "so Emmett's COMMIT can overtake the finalizing of the INSERT ... RETURNING before it (with `db.serialize()` added",
          'the failures stopped, measured under the same load). Ours keeps one connection and commits the appends that',
          'arrive together in one transaction.',
        ]),
    '',
    '',
  ];
}

/** Appends on PostgreSQL at 32 at once ÷ the raw INSERT floor, and ours ÷ Emmett's on each workload: the targets of issue 63. */
export function postgresTargets(postgres: Awaited<ReturnType<typeof benchPostgres>>) {
  if ('skipped' in postgres) return undefined;
  const concurrent = postgres.rows.find((row) => row.concurrency === CONCURRENT)!;
  return {
    floorRatio: concurrent.ours / concurrent.floor,
    peerRatios: postgres.rows.map((row) => (row.peer.rate === undefined ? Number.NaN : row.ours / row.peer.rate)),
  };
}

export function postgresSection(postgres: Awaited<ReturnType<typeof benchPostgres>>): string[] {
  return [
    `## ${HEADING.postgres}`,
    '',
    ...('skipped' in postgres
      ? [`Skipped: ${postgres.skipped}.`]
      : [
          `A throwaway PostgreSQL ${postgres.version.split(' ')[0]} started for the run from Debian's binaries, fsync on (every commit durable),`,
          'on the same disk as everything else. Appends of one `user:created` each to a new stream (ours expecting `no_stream`,',
          'Emmett `STREAM_DOES_NOT_EXIST`). The floor INSERTs the same rows into our own `events` table, one statement and one',
          'commit each, with as many connections as appenders, so PostgreSQL group-commits them as it would for any application.',
          `Emmett is \`@event-driven-io/emmett-postgresql\` ${PEER_VERSION}, in a process of its own. Each side is run 3 times in`,
          'turn, each on a database of its own, and the median kept; connections are opened before the clock starts.',
          '',
          '| workload | ours (events/s) | raw INSERT floor | ours ÷ floor | Emmett (events/s) | ours ÷ Emmett |',
          '|---|---:|---:|---:|---:|---:|',
          ...postgres.rows.map(
            (r) =>
              `| ${r.name} | ${fmt(r.ours)} | ${fmt(r.floor)} | ${ratio(r.ours, r.floor)} | ${r.peer.rate === undefined ? 'none finished' : fmt(r.peer.rate)}${peerFailures(r.peer)} | ${r.peer.rate === undefined ? '–' : ratio(r.ours, r.peer.rate)} |`,
          ),
          '',
          "One at a time, each of our appends is one statement that runs our checks (the stream's revision, the event id not",
          'reused) under the append lock that keeps positions in commit order; the floor checks nothing and orders nothing.',
          'At 32 at once, the appends that arrive together share one statement and one commit.',
          '',
          `The read models on PostgreSQL, ${fmt(postgres.products)} products, each read in turn with raw SQL doing the same lookups on the`,
          'same tables (the search floor runs only the candidates query with the query written by hand: no vocabulary asked, nothing',
          'ranked). p50 of each:',
          '',
          '| read | ours (ms) | raw SQL (ms) | ours ÷ raw |',
          '|---|---:|---:|---:|',
          ...postgres.reads.map((r) => `| ${r.name} | ${ms(r.ours)} | ${ms(r.floor)} | ${ratio(r.ours, r.floor)} |`),
        ]),
    '',
  ];
}
