// Emmett's PostgreSQL event store (the peer) on the appends infra/bench/postgres.ts measures for
// ours: `count` appends of one event each to new streams, by `concurrency` appenders at once.
// Prints one line, RESULT and JSON: events per second of the first run that finished and the
// errors of the runs that did not, up to ATTEMPTS runs (what the peer cannot do is part of the result).
import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';

const [url, countArg, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const store = getPostgreSQLEventStore(url);
const payload = { userId: 'bench', name: 'Bench User', email: 'bench@example.com' };
const event = () => ({ type: 'user:created', data: payload, metadata: { correlationId: 'bench', causationId: 'bench' } });
const append = () => store.appendToStream(`user-${randomUUID()}`, [event()], { expectedStreamVersion: STREAM_DOES_NOT_EXIST });

const ATTEMPTS = 3;
async function rate(run) {
  const failures = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const started = performance.now();
    try {
      const events = await run();
      return { rate: events / ((performance.now() - started) / 1000), failures };
    } catch (error) {
      failures.push(String(error?.message ?? error).split('\n')[0]);
    }
  }
  return { failures };
}

// Its schema is made on first use, and each appender's connection opened, before the clock starts.
await Promise.all(Array.from({ length: concurrency }, append));
const each = Math.ceil(count / concurrency);
const result = await rate(async () => {
  const settled = await Promise.allSettled(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < each; i++) await append();
    }),
  );
  const failed = settled.find((appender) => appender.status === 'rejected');
  if (failed) throw failed.reason;
  return each * concurrency;
});
await store.close();
console.log('RESULT', JSON.stringify(result));
