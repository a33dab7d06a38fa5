// Emmett's SQLite event store (the peer) on the appends infra/bench/emmett.ts measures for ours:
// one event at a time to new streams, one at a time to one stream with its expected version, and
// 32 appenders at once each to new streams. Prints one JSON line: per workload, events per second
// of the first run that finished and the errors of the runs that did not, up to ATTEMPTS runs (what
// the peer cannot do is part of the result). Under CPU load Emmett's appends fail now and then at
// COMMIT with SQLITE_BUSY "SQL statements in progress": sqlite3 runs a connection's statements in
// parallel on its thread pool unless told to serialize, and Emmett does not, so its COMMIT can
// overtake the finalizing of the INSERT ... RETURNING before it.
import { randomUUID } from 'node:crypto';
import { getSQLiteEventStore } from '@event-driven-io/emmett-sqlite';

const [file, countArg] = process.argv.slice(2);
const count = Number(countArg);
const store = getSQLiteEventStore({ fileName: file });
const payload = { userId: 'bench', name: 'Bench User', email: 'bench@example.com' };
const event = () => ({ type: 'user:created', data: payload, metadata: { correlationId: 'bench', causationId: 'bench' } });

const ATTEMPTS = 3;
let done = 0;
async function rate(run) {
  const failures = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    done = 0;
    const started = performance.now();
    try {
      const events = await run();
      return { rate: events / ((performance.now() - started) / 1000), failures };
    } catch (error) {
      failures.push(`${String(error?.message ?? error).split('\n')[0]} (after ${done} appends)`);
    }
  }
  return { failures };
}
async function append(stream, expectedStreamVersion) {
  await store.appendToStream(stream, [event()], { expectedStreamVersion });
  done++;
}

// 0n is Emmett's "no stream yet": it inserts the stream's row, which fails if the stream exists.
const toNewStreams = () =>
  rate(async () => {
    for (let i = 0; i < count; i++) await append(`user-${randomUUID()}`, 0n);
    return count;
  });
const toOneStream = () =>
  rate(async () => {
    const stream = `user-${randomUUID()}`;
    for (let version = 0n; version < BigInt(count); version++) {
      await append(stream, version);
    }
    return count;
  });
const concurrent = () =>
  rate(async () => {
    const each = Math.ceil(count / 32);
    // Every appender ends before the run is judged: appenders still running after the first
    // failure held the file's lock through the next run, which then failed on it, and slowly.
    const settled = await Promise.allSettled(
      Array.from({ length: 32 }, async () => {
        for (let i = 0; i < each; i++) await append(`user-${randomUUID()}`, 0n);
      }),
    );
    const failed = settled.find((appender) => appender.status === 'rejected');
    if (failed) throw failed.reason;
    return each * 32;
  });

await store.appendToStream(`user-${randomUUID()}`, [event()], { expectedStreamVersion: 0n });
console.log('RESULT', JSON.stringify({ newStreams: await toNewStreams(), oneStream: await toOneStream(), concurrent: await concurrent() }));
