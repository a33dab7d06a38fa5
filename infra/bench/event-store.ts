// Embedded event store append rates against the floor of raw SQLite inserts on the same disk
// with the same settings (WAL, the same synchronous level, the same table and indexes).
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { EVENT_STORE_SCHEMA } from '@eventide/stores/event-store/sqlite-schema.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openSqliteFile } from '@eventide/stores/sqlite-file.ts';
import { p } from './percentile.ts';

export interface Measure {
  name: string;
  /** Events per second. */
  rate: number;
}

const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };
const payload = { userId: 'bench', name: 'Bench User', email: 'bench@example.com' };

function event(): NewEvent {
  return { id: newId(), type: 'user:created', data: payload, metadata };
}

/** A file opened as the event store opens its own (the same pragmas), with the same tables. */
function rawDatabase(path: string, synchronous: 'FULL' | 'NORMAL'): DatabaseSync {
  const db = openSqliteFile(path, synchronous);
  db.exec(EVENT_STORE_SCHEMA);
  return db;
}

function rawInserts(path: string, synchronous: 'FULL' | 'NORMAL', events: number, perTransaction: number): number {
  const db = rawDatabase(path, synchronous);
  const insert = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const started = performance.now();
  for (let done = 0; done < events; done += perTransaction) {
    const stream = newId();
    db.exec('BEGIN');
    for (let i = 0; i < perTransaction; i++) {
      insert.run(newId(), stream, i, 'user:created', JSON.stringify(payload), JSON.stringify(metadata), new Date().toISOString());
    }
    db.exec('COMMIT');
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return events / seconds;
}

async function embeddedAppends(path: string, synchronous: 'FULL' | 'NORMAL', events: number, perAppend: number, concurrency: number) {
  const store = openSqliteEventStore({ path, synchronous });
  const appendsPerWorker = Math.ceil(events / perAppend / concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < appendsPerWorker; i++) {
        await store.append(newId(), Array.from({ length: perAppend }, event), { expectedRevision: 'no_stream' });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return (appendsPerWorker * concurrency * perAppend) / seconds;
}

export interface EventStoreResults {
  synchronous: string;
  rows: Array<{ name: string; ours: number; floor: number; floorName: string }>;
}

/** Rounds each side is measured in, the two sides in turn: one window each moved a ratio by a fifth between runs here. */
export const EVENT_STORE_ROUNDS = 5;

const median = (rates: number[]) => p(rates, 0.5);

/**
 * The median rate of each side over EVENT_STORE_ROUNDS rounds, the floor and ours in turn
 * (which goes first alternates), each round on fresh files: both meet the same moments of the
 * machine, as one window each did not.
 */
async function inTurn(floor: () => number, ours: () => Promise<number>): Promise<{ floor: number; ours: number }> {
  const rates = { floor: [] as number[], ours: [] as number[] };
  for (let round = 0; round < EVENT_STORE_ROUNDS; round++) {
    if (round % 2 === 0) rates.floor.push(floor());
    rates.ours.push(await ours());
    if (round % 2 === 1) rates.floor.push(floor());
  }
  return { floor: median(rates.floor), ours: median(rates.ours) };
}

export async function benchEventStore(dir: string, synchronous: 'FULL' | 'NORMAL', scale: number): Promise<EventStoreResults> {
  let n = 0;
  const file = () => join(dir, `es-${synchronous}-${n++}.db`);
  const singles = Math.round(600 * scale);
  const batched = Math.round(20_000 * scale);
  // Warm the disk and the JIT before measuring.
  rawInserts(file(), synchronous, 200, 1);
  await embeddedAppends(file(), synchronous, 200, 1, 1);

  const { floor: rawSingle, ours: single } = await inTurn(
    () => rawInserts(file(), synchronous, singles, 1),
    () => embeddedAppends(file(), synchronous, singles, 1, 1),
  );
  // Against the same floor as one appender (the raw inserts one at a time, measured above).
  const concurrentRates: number[] = [];
  for (let round = 0; round < EVENT_STORE_ROUNDS; round++)
    concurrentRates.push(await embeddedAppends(file(), synchronous, singles * 4, 1, 32));
  const concurrent = median(concurrentRates);
  const { floor: rawBatch, ours: batch } = await inTurn(
    () => rawInserts(file(), synchronous, batched, 100),
    () => embeddedAppends(file(), synchronous, batched, 100, 1),
  );
  return {
    synchronous,
    rows: [
      { name: 'append 1 event, one appender', ours: single, floor: rawSingle, floorName: 'raw INSERT, 1 per transaction' },
      { name: 'append 1 event, 32 concurrent appenders', ours: concurrent, floor: rawSingle, floorName: 'raw INSERT, 1 per transaction' },
      { name: 'append a batch of 100 events', ours: batch, floor: rawBatch, floorName: 'raw INSERT, 100 per transaction' },
    ],
  };
}
