// The fair floor for POST /users: a Koa handler that reads the same JSON body and makes the same
// durable writes a sign-up makes (two event rows, one after the other, each committed before it
// goes on), straight into SQLite with the event store's table, indexes and settings, and nothing
// else: no validation, no revision check, no claim. GROUP_COMMIT=1 shares one transaction among
// the inserts that arrive in the same turn of the event loop, as our event store does; 0 commits
// each insert alone.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { openSqliteFile } from '@eventide/shared/sqlite-file.ts';

const db = openSqliteFile(join(process.env.DATA_DIR!, 'raw.db'), 'FULL');
db.exec(`CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, stream_id TEXT NOT NULL,
  revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, time TEXT NOT NULL,
  UNIQUE (stream_id, revision))`);
const insert = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata, time) VALUES (?, ?, ?, ?, ?, ?, ?)');
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
type Row = [string, string, number, string, string, string, string];

let queue: Array<{ row: Row; done: () => void }> = [];
function write(row: Row): Promise<void> {
  if (process.env.GROUP_COMMIT !== '1') {
    insert.run(...row);
    return Promise.resolve();
  }
  return new Promise((done) => {
    if (queue.length === 0) setImmediate(flush);
    queue.push({ row, done });
  });
}
function flush() {
  const batch = queue;
  queue = [];
  begin.run();
  for (const { row } of batch) insert.run(...row);
  commit.run();
  for (const { done } of batch) done();
}

const metadata = JSON.stringify({ correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' } });
const app = new Koa();
app.use(async (ctx) => {
  const body = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf-8', limit: 65536 })) as Record<string, unknown>;
  const userId = randomUUID();
  const time = new Date().toISOString();
  await write([randomUUID(), `email-${String(body.email)}`, 0, 'email:claimed', JSON.stringify({ userId }), metadata, time]);
  await write([randomUUID(), `user-${userId}`, 0, 'user:created', JSON.stringify({ ...body, userId }), metadata, time]);
  ctx.status = 201;
  ctx.body = { ...body, userId };
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});
