// The fair floor for POST /users: a Koa handler that reads the same JSON body and makes the same
// durable writes a sign-up makes, straight into SQLite, and nothing else (no validation, no
// revision check, no claim, no sealing). A sign-up commits the new person's key to keys.db before
// the events that use it, then the email claim and `user:created` to events.db together; so does
// this, into the key store's and the event store's tables with their indexes and settings.
// GROUP_COMMIT=1 shares one transaction per file among the writes that arrive in the same turn
// of the event loop, as our stores do, and commits the events of a turn's sign-ups right behind
// their keys, in the same turn, as ours do (event-store/sqlite.ts reserveFlush); 0 commits each
// insert alone. PROJECT=1 also writes each new
// user's read-model row after the commit, on a thread of its own (raw-projector.ts), as `npm start`
// projects every sign-up beside the requests.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { EVENT_STORE_SCHEMA } from '@eventide/stores/event-store/sqlite-schema.ts';
import { KEY_STORE_SCHEMA } from '@eventide/stores/key-store/sqlite.ts';
import { openSqliteFile } from '@eventide/stores/sqlite-file.ts';

const grouped = process.env.GROUP_COMMIT === '1';

interface Committer {
  /** Writes `rows` durably: in a transaction of their own, or shared with the rest of the turn's. */
  write(rows: unknown[][]): Promise<void>;
  /** Keeps a group commit, scheduled now, for writes that will come once what is scheduled before it is done. */
  reserve(): void;
}

function committer(db: DatabaseSync, insert: (row: unknown[]) => void, committed = () => {}): Committer {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  let queue: Array<{ rows: unknown[][]; done: () => void }> = [];
  let scheduled = false;
  let reserved = false;
  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    begin.run();
    for (const { rows } of batch) for (const row of rows) insert(row);
    commit.run();
    committed();
    for (const { done } of batch) done();
  };
  return {
    write(rows) {
      if (!grouped) {
        for (const row of rows) insert(row);
        committed();
        return Promise.resolve();
      }
      return new Promise((done) => {
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
        queue.push({ rows, done });
      });
    },
    reserve() {
      if (!grouped || reserved) return;
      reserved = true;
      scheduled = true;
      setImmediate(() => {
        reserved = false;
        flush();
      });
    },
  };
}

const keys = openSqliteFile(join(process.env.DATA_DIR!, 'raw-keys.db'), 'FULL');
keys.exec(KEY_STORE_SCHEMA);
const insertKey = keys.prepare('INSERT OR IGNORE INTO subject_keys (subject, key) VALUES (?, ?)');
const writeKeys = committer(keys, (row) => insertKey.run(...(row as [string, Buffer])));

const events = openSqliteFile(join(process.env.DATA_DIR!, 'raw.db'), 'FULL');
events.exec(EVENT_STORE_SCHEMA);
const insertEvent = events.prepare(
  'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const projector =
  process.env.PROJECT === '1'
    ? new Worker(new URL('./raw-projector.ts', import.meta.url), { workerData: { dataDir: process.env.DATA_DIR } })
    : undefined;
const writeEvents = committer(
  events,
  (row) => insertEvent.run(...(row as [string, string, number, string, string, string, string])),
  () => projector?.postMessage('committed'),
);

const metadata = JSON.stringify({ correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' } });
const app = new Koa();
app.use(async (ctx) => {
  const body = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf-8', limit: 65536 })) as Record<string, unknown>;
  const userId = randomUUID();
  const time = new Date().toISOString();
  const keyWritten = writeKeys.write([[`user-${userId}`, randomBytes(32)]]);
  writeEvents.reserve();
  await keyWritten;
  await writeEvents.write([
    [randomUUID(), `email-${String(body.email)}`, 0, 'email:claimed', JSON.stringify({ userId }), metadata, time],
    [randomUUID(), `user-${userId}`, 0, 'user:created', JSON.stringify({ ...body, userId }), metadata, time],
  ]);
  ctx.status = 201;
  ctx.body = { ...body, userId };
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});
