// The services as separate processes on one machine, sharing the embedded stores of one data
// directory (SQLite in WAL mode lets several processes read and write them): a write taken by the
// command process is projected by the projector process and read from the query process, and the
// session the command process opened is honoured by the query and collab processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { ENTRY, startService, type RunningService } from './process.ts';

const dir = mkdtempSync(join(tmpdir(), 'eventide-processes-'));
let command: RunningService;
let projector: RunningService;
let query: RunningService;
let collab: RunningService;

beforeAll(async () => {
  const env = { DATA_DIR: dir };
  // The command process first: it makes the shared secrets in the data directory the others then read.
  command = await startService(env, ENTRY.command);
  [projector, query, collab] = await Promise.all([
    startService(env, ENTRY.projector),
    startService(env, ENTRY.query),
    startService(env, ENTRY.collab),
  ]);
});
afterAll(async () => {
  await Promise.all([command, projector, query, collab].map((s) => s?.stop()));
  rmSync(dir, { recursive: true, force: true });
});

it('reads on the query process what the command process wrote, once the projector process has projected it', async () => {
  const writer = jsonClient(command.url);
  const signedUp = await writer.request('POST', '/users', { name: 'Apart', email: 'apart@example.com', password: 'a long passphrase 1' });
  expect(signedUp.status).toBe(201);
  const position = signedUp.headers.get('Event-Position')!;
  const { userId } = signedUp.body as { userId: string };

  const reader = jsonClient(query.url);
  reader.setCookies(writer.cookieHeader());
  const read = await reader.request('GET', `/users/${userId}`, undefined, { 'Wait-For-Position': position });
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ userId, name: 'Apart' });
  expect(Number(read.headers.get('Read-Position'))).toBeGreaterThanOrEqual(Number(position));
});

it('lets the session opened on the command process edit on the collab process', async () => {
  const writer = jsonClient(command.url);
  await writer.request('POST', '/users', { name: 'Editor', email: 'editor-apart@example.com', password: 'a long passphrase 2' });
  const editor = await connectEditor(collab.url, writer.cookieHeader());
  try {
    const doc = await openText(editor.doc('apart'));
    await submit(doc, [{ insert: 'written on another process' }]);
    expect(textOf(doc)).toBe('written on another process');
  } finally {
    editor.close();
  }
});
