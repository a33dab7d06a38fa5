// Embedded event store append rates against the floor of raw SQLite inserts on the same disk
// with the same settings (WAL, the same synchronous level, the same table and indexes).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteEventStore } from '@eventide/shared/event-store/sqlite.ts';
import type { NewEvent } from '@eventide/shared/event-store/port.ts';
import { newId } from '@eventide/shared/ids.ts';

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

function rawDatabase(path: string, synchronous: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = ${synchronous};
    CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, stream_id TEXT NOT NULL,
      revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, time TEXT NOT NULL,
      UNIQUE (stream_id, revision));
  `);
  return db;
}

function rawInserts(path: string, synchronous: string, events: number, perTransaction: number): number {
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

export async function benchEventStore(dir: string, synchronous: 'FULL' | 'NORMAL', scale: number): Promise<EventStoreResults> {
  let n = 0;
  const file = () => join(dir, `es-${synchronous}-${n++}.db`);
  const singles = Math.round(1500 * scale);
  const batched = Math.round(50_000 * scale);
  // Warm the disk and the JIT before measuring.
  rawInserts(file(), synchronous, 200, 1);
  await embeddedAppends(file(), synchronous, 200, 1, 1);

  const rawSingle = rawInserts(file(), synchronous, singles, 1);
  const single = await embeddedAppends(file(), synchronous, singles, 1, 1);
  const concurrent = await embeddedAppends(file(), synchronous, singles * 4, 1, 32);
  const rawBatch = rawInserts(file(), synchronous, batched, 100);
  const batch = await embeddedAppends(file(), synchronous, batched, 100, 1);
  return {
    synchronous,
    rows: [
      { name: 'append 1 event, one appender', ours: single, floor: rawSingle, floorName: 'raw INSERT, 1 per transaction' },
      { name: 'append 1 event, 32 concurrent appenders', ours: concurrent, floor: rawSingle, floorName: 'raw INSERT, 1 per transaction' },
      { name: 'append a batch of 100 events', ours: batch, floor: rawBatch, floorName: 'raw INSERT, 100 per transaction' },
    ],
  };
}
