// Snapshots: milestones are saved every N ops (and every T seconds), and a document can be read
// as it was at a version or at a time.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollabApp, type CollabApp, type User } from './harness.ts';
import { openText, submit } from '@eventide/testing/collab/editor-client.ts';

let app: CollabApp;
let owner: User;
const times: { version: number; at: string; text: string }[] = [];
/** The versions a milestone was saved at, as ShareDB saved them. */
const saved: number[] = [];

beforeAll(async () => {
  app = await startCollabApp({ env: { COLLAB_SNAPSHOT_EVERY_OPS: '3', COLLAB_SNAPSHOT_EVERY_SECONDS: '3600' } });
  owner = await app.newUser();
  app.collab.collab.backend.milestoneDb!.on('save', (_collection: string, snapshot: { id: string; v: number }) => {
    if (snapshot.id === 'history') saved.push(snapshot.v);
  });
  const client = await owner.editor();
  const doc = await openText(client.doc('history'));
  let text = '';
  for (let n = 1; n <= 10; n++) {
    const word = `w${n} `;
    await submit(doc, text ? [{ retain: text.length }, { insert: word }] : [{ insert: word }]);
    text += word;
    times.push({ version: doc.version!, at: new Date().toISOString(), text });
    // Each version gets its own millisecond, so "at a time" has one answer.
    const next = Date.now() + 2;
    while (Date.now() < next);
  }
  client.close();
});
afterAll(() => app.close());

it('saves a milestone every N ops, and keeps the newest (the ops kept start at 0)', async () => {
  await app.collab.collab.history.idle();
  // The first commit of this process saves one (the timer starts there), then every third version.
  expect(saved).toEqual([1, 3, 6, 9]);
  const db = new DatabaseSync(join(app.dir, 'collab.db'), { readOnly: true });
  const versions = db
    .prepare("SELECT v FROM sharedb_milestones WHERE collection = 'documents' AND id = 'history' ORDER BY v")
    .all()
    .map((r) => r.v);
  db.close();
  // Those between are let go (docs/collab.md#history): the history is rebuilt from the ops from 0.
  expect(versions).toEqual([9]);
});

it('reads the document at a version, and at a time', async () => {
  for (const then of times) {
    expect((await owner.http.request('GET', `/collab/documents/history?version=${then.version}`)).body).toMatchObject({
      version: then.version,
      text: then.text,
    });
    expect((await owner.http.request('GET', `/collab/documents/history?at=${then.at}`)).body).toMatchObject({
      version: then.version,
      text: then.text,
    });
  }
  expect((await owner.http.request('GET', '/collab/documents/history?version=0')).body).toMatchObject({ version: 0, text: null });
  expect((await owner.http.request('GET', '/collab/documents/history')).body).toMatchObject({ version: 11, text: times.at(-1)!.text });
});

it('names the field for bad input', async () => {
  for (const [query, field] of [
    ['version=abc', 'version'],
    ['version=-1', 'version'],
    ['version=', 'version'],
    ['version=0x1', 'version'],
    ['version=1&version=2', 'version'],
    ['version=99', 'version'],
    ['at=yesterday', 'at'],
    ['version=1&at=2026-11-21T00:00:00Z', 'at'],
    ['page=2', 'page'],
  ] as const) {
    const reply = await owner.http.request('GET', `/collab/documents/history?${query}`);
    expect(reply.status, query).toBe(400);
    expect(reply.headers.get('content-type')).toContain('application/problem+json');
    expect(
      reply.body.errors.map((e: { field: string }) => e.field),
      query,
    ).toContain(field);
  }
  // An id no document could have names nothing.
  expect((await owner.http.request('GET', '/collab/documents/no%20spaces')).status).toBe(404);
});
