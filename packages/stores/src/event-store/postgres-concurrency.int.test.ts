// The event store on PostgreSQL under concurrency, as a split deployment meets it: 32 writers in
// 4 processes append to the same few streams, each expecting the revision it last saw and trying
// again when told another was first, while followers in 2 other processes read the log live.
// Every follower must see every acknowledged event exactly once, in position order (none
// skipped because a transaction that drew a lower position committed later), and each stream's
// revisions must be those its successful appends were told, none lost and none given twice.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnInGroup } from '@eventide/testing/processes.ts';
import { postgresUnavailable, startPostgres, type TestPostgres } from '@eventide/testing/postgres-server.ts';

const STORE = fileURLToPath(new URL('./postgres.ts', import.meta.url));
const PORT = fileURLToPath(new URL('./port.ts', import.meta.url));
const WRITER_PROCESSES = 4;
const WRITERS_EACH = 8;
const APPENDS_EACH = Number(process.env.POSTGRES_CONCURRENT_APPENDS ?? 40);
const STREAMS = 12;
const FOLLOWERS = 2;
/** How long a follower may take to see the last event once every writer is done: far more than it needs. */
const FOLLOWER_BOUND_MS = 60_000;

interface Acknowledged {
  ids: string[];
  stream: string;
  revision: number;
  position: number;
}

/** A child process running `script` (an ES module), its stdout parsed as JSON once it ends. */
function run<T>(script: string): { done: Promise<T>; send: (text: string) => void } {
  const child = spawnInGroup(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<T>((resolve, reject) =>
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as T) : reject(new Error(`exited with ${code}: ${stderr}`)))),
  );
  return { done, send: (text) => child.stdin!.write(text) };
}

function writer(url: string, index: number): string {
  return `
    import { openPostgresEventStore } from ${JSON.stringify(STORE)};
    import { WrongExpectedRevisionError } from ${JSON.stringify(PORT)};
    const store = await openPostgresEventStore({ url: ${JSON.stringify(url)}, poolSize: 4 });
    const metadata = { correlationId: 'c', causationId: 'c', actor: { type: 'anonymous' } };
    const acknowledged = [];
    let conflicts = 0;
    const known = new Map();
    await Promise.all(Array.from({ length: ${WRITERS_EACH} }, async (_, w) => {
      for (let i = 0; i < ${APPENDS_EACH}; i++) {
        const stream = 'stream-' + ((${index} * 5 + w * 3 + i) % ${STREAMS});
        // One event, or two: an append's events take consecutive revisions and positions.
        const events = Array.from({ length: 1 + (i % 2) }, (_, k) => ({ id: crypto.randomUUID(), type: 'counted', data: { w, i, k }, metadata }));
        for (;;) {
          const last = known.get(stream) ?? -1;
          try {
            const result = await store.append(stream, events, { expectedRevision: last === -1 ? 'no_stream' : last });
            known.set(stream, result.nextRevision);
            acknowledged.push({ ids: events.map((e) => e.id), stream, revision: result.nextRevision, position: result.position });
            break;
          } catch (error) {
            if (!(error instanceof WrongExpectedRevisionError)) throw error;
            conflicts++;
            known.set(stream, error.actual);
          }
        }
      }
    }));
    await store.close();
    process.stdout.write(JSON.stringify({ acknowledged, conflicts }));
  `;
}

/**
 * Follows the log from its start until told how many events there are and it has seen that many,
 * or until told to stop (one that missed an event would wait for it for ever): then says what it saw.
 */
function follower(url: string): string {
  return `
    import { openPostgresEventStore } from ${JSON.stringify(STORE)};
    const store = await openPostgresEventStore({ url: ${JSON.stringify(url)}, poolSize: 2 });
    const seen = [];
    let total;
    const controller = new AbortController();
    process.stdin.on('data', (chunk) => {
      const said = String(chunk).trim();
      if (said === 'stop') return controller.abort();
      total = Number(said);
      if (seen.length >= total) controller.abort();
    });
    for await (const event of store.subscribeToAll({ signal: controller.signal })) {
      seen.push([event.position, event.id]);
      if (total !== undefined && seen.length >= total) break;
    }
    process.stdin.destroy();
    await store.close();
    process.stdout.write(JSON.stringify(seen));
  `;
}

const unavailable = postgresUnavailable();
let server: TestPostgres | undefined;
afterAll(async () => server?.remove());

describe.skipIf(unavailable)('the event store on PostgreSQL, written and followed by several processes', () => {
  it(`gives ${FOLLOWERS} followers every event of ${WRITER_PROCESSES} x ${WRITERS_EACH} racing writers once, in position order`, async () => {
    server = await startPostgres();
    const url = await server.database();
    // The schema first, so that the processes' own opens find it made (they would wait for one another's).
    const { openPostgresEventStore } = await import('./postgres.ts');
    await (await openPostgresEventStore({ url })).close();

    const followers = Array.from({ length: FOLLOWERS }, () => run<Array<[number, string]>>(follower(url)));
    const writers = await Promise.all(
      Array.from({ length: WRITER_PROCESSES }, (_, p) => run<{ acknowledged: Acknowledged[]; conflicts: number }>(writer(url, p)).done),
    );
    const acknowledged = writers.flatMap((w) => w.acknowledged);
    const ids = acknowledged.flatMap((a) => a.ids);
    for (const f of followers) f.send(`${ids.length}\n`);
    // Told to stop after a bound, a follower that missed an event says what it saw, and the
    // assertions below name what is missing, rather than the test timing out.
    const stops = followers.map((f) => setTimeout(() => f.send('stop\n'), FOLLOWER_BOUND_MS));
    const seen = await Promise.all(followers.map((f) => f.done));
    for (const stop of stops) clearTimeout(stop);
    const conflicts = writers.reduce((sum, w) => sum + w.conflicts, 0);
    console.log(
      `postgres concurrency: ${acknowledged.length} appends (${ids.length} events) by ${WRITER_PROCESSES * WRITERS_EACH} writers on ${STREAMS} streams, ${conflicts} conflicts retried; ${FOLLOWERS} followers saw ${seen.map((s) => s.length).join(', ')}`,
    );

    expect(acknowledged).toHaveLength(WRITER_PROCESSES * WRITERS_EACH * APPENDS_EACH);
    expect(conflicts).toBeGreaterThan(0);
    for (const events of seen) {
      const positions = events.map(([position]) => position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(new Set(positions).size).toBe(positions.length);
      expect(new Set(events.map(([, id]) => id))).toEqual(new Set(ids));
    }
    // Each stream's successful appends hold its revisions 0..n, each once: none lost, none doubled.
    const byStream = new Map<string, Acknowledged[]>();
    for (const a of acknowledged) byStream.set(a.stream, [...(byStream.get(a.stream) ?? []), a]);
    for (const appends of byStream.values()) {
      const revisions = appends.flatMap((a) => a.ids.map((_, k) => a.revision - (a.ids.length - 1) + k)).sort((a, b) => a - b);
      expect(revisions).toEqual(revisions.map((_, i) => i));
    }
  });
});

if (unavailable) console.warn(`SKIPPED: the event store on PostgreSQL under concurrency: ${unavailable}`);
